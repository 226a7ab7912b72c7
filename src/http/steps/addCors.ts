import type { HttpContext } from '../context';
import { withCors } from '../cors';

/** Lets a browser page from an allowed origin (`checkOrigin`) read the answer, whatever it is. */
export function addCors(response: Response, context: HttpContext): Response {
  return context.allowedOrigin === undefined ? response : withCors(response, context.allowedOrigin);
}
