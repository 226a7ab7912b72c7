/** spec extensions/apps, Content Requirements: a view MUST be a valid HTML5 document, so at least its doctype and something after it. */
export function checkDocument(html: string, where: string): void {
  if (typeof html !== 'string' || !/^\s*<!doctype html>\s*\S/i.test(html))
    throw new Error(`${where}: html must be an HTML5 document, starting with <!doctype html>`);
}
