// Visits every screen in light and dark and prints axe's serious/critical findings.
import { startServer, launchBrowser, signIn, accessibilityViolations, closeAll, apiSession } from './harness.mjs';
const server = await startServer({});
const paths = ['/monitor/dashboard', '/monitor/customize', '/monitor/filters', '/monitor/filters/new', '/monitor/configurations', '/monitor/groups',
  '/monitor/matches/grid', '/monitor/matches/list', '/monitor/matches/map', '/settings', '/tenant/home', '/tenant/users', '/tenant/tokens',
  '/tenant/audit-logs', '/tenant/announcements', '/beacon', '/beacon/results?query=ransomware', '/history', '/exports', '/sources', '/locate', '/locate/saved'];
for (const scheme of ['light', 'dark']) {
  const { context } = await launchBrowser({ colorScheme: scheme, viewport: { width: 1425, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/login');
  await signIn(page);
  for (const p of paths) {
    await page.goto(server.url + p);
    await page.waitForTimeout(2500);
    const v = await accessibilityViolations(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    console.log(scheme, p, 'scrollWidth', width, v.length ? '\n  ' + v.join('\n  ') : 'ok');
  }
  await context.close();
}
server.stop ? await server.stop() : server.kill?.();
process.exit(0);
