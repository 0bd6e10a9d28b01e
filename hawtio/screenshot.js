// Opens Hawtio through the one-command console's /oneway page (which saves the connection to the
// replicator), selects the Camel routes and photographs them with their counters.
// node hawtio/screenshot.js URL PICTURE   (playwright-core, driving the system's Chromium)
const { chromium } = require('playwright-core');

(async () => {
  const [url, picture] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(url);
    const routes = page.getByText('routes', { exact: true }).first();
    await routes.waitFor({ timeout: 60000 });
    await routes.click();
    await page.getByText('Completed', { exact: false }).first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: picture });
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
