import { startServer, launchBrowser, signIn } from './harness.mjs';
const server = await startServer({});
const { context } = await launchBrowser({ viewport: { width: 1425, height: 900 } });
const page = await context.newPage();
await page.goto(server.url + '/login');
await signIn(page);
for (const p of process.argv.slice(2)) {
  await page.goto(server.url + p);
  await page.waitForTimeout(2500);
  const wide = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > 1425) out.push(`${el.tagName}.${[...el.classList].slice(0, 3).join('.')} x=${Math.round(r.left)} w=${Math.round(r.width)} '${(el.textContent||'').slice(0,30)}' sw=${el.scrollWidth}`);
    }
    return out.slice(0,14);
  });
  console.log(p, '\n  ' + wide.join('\n  '));
  await page.screenshot({ path: `/work/shots/wide${p.replaceAll('/', '_')}.png` });
}
await context.close(); await server.stop(); process.exit(0);
