/**
 * The world clock view: draws `world_clock`'s structured result (one bar per zone, its working day
 * shaded, a mark where the zone is now), follows the host's theme, and refreshes through the
 * app-only tool `world_clock_refresh`, which the host forwards to the server. Runs in the host's
 * sandboxed iframe; `App` speaks MCP Apps to the host over postMessage (spec extensions/apps).
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import './style.css';

interface ZoneTime {
  zone: string;
  place: string;
  time: string;
  day: string;
  hour: number;
  offset: string;
}
interface WorldClock {
  at: string;
  zones: ZoneTime[];
}

const list = document.getElementById('zones') as HTMLOListElement;
const status = document.getElementById('status') as HTMLParagraphElement;
const refresh = document.getElementById('refresh') as HTMLButtonElement;
let zones: string[] | undefined;

function isWorldClock(value: unknown): value is WorldClock {
  return typeof value === 'object' && value !== null && Array.isArray((value as WorldClock).zones);
}

/** Draws the zones with textContent only: what the tool sent is data, never markup. */
function render(clock: WorldClock): void {
  list.replaceChildren(
    ...clock.zones.map((z) => {
      const row = document.createElement('li');
      const place = document.createElement('span');
      place.className = 'place';
      place.textContent = z.place;
      const offset = document.createElement('small');
      offset.textContent = z.offset;
      place.append(offset);
      const day = document.createElement('span');
      day.className = 'day';
      day.setAttribute('aria-hidden', 'true');
      const work = document.createElement('span');
      work.className = 'work';
      const now = document.createElement('span');
      now.className = 'now';
      now.style.left = `${(Math.min(Math.max(z.hour, 0), 24) / 24) * 100}%`;
      day.append(work, now);
      const time = document.createElement('span');
      time.className = 'time';
      time.textContent = `${z.day} ${z.time}`;
      row.append(place, day, time);
      return row;
    }),
  );
  status.textContent = `As of ${clock.at.slice(11, 16)} UTC`;
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

const app = new App({ name: 'world-clock', version: '1.0.0' });
app.ontoolinput = ({ arguments: args }) => {
  const asked = args?.zones;
  zones = Array.isArray(asked) ? asked.filter((z): z is string => typeof z === 'string') : undefined;
};
app.ontoolresult = (result) => {
  if (isWorldClock(result.structuredContent)) render(result.structuredContent);
  else status.textContent = result.content?.find((c) => c.type === 'text')?.text ?? 'No result';
  refresh.disabled = false;
};
app.onhostcontextchanged = applyContext;

refresh.addEventListener('click', async () => {
  refresh.disabled = true;
  status.textContent = 'Refreshing…';
  try {
    const result = await app.callServerTool({ name: 'world_clock_refresh', arguments: zones ? { zones } : {} });
    if (result.isError || !isWorldClock(result.structuredContent))
      status.textContent = 'The refresh failed; try again.';
    else render(result.structuredContent);
  } catch {
    status.textContent = 'The host could not reach the server; try again.';
  } finally {
    refresh.disabled = false;
  }
});

await app.connect();
applyContext(app.getHostContext());
