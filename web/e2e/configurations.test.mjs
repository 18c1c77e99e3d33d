// Location configurations end to end: a place added from an address (the offline gazetteer
// answers), its bounds on a map, and a proximity alert of a new saved search watching it.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { apiSession, closeAll, signedInBrowser, startServer, startSmtp } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const PLACE = 'Head office';
const SEARCH = 'Harbour near the office';

describe('Location configurations', () => {
  let server;
  let browser;
  let page;
  let smtp;

  before(async () => {
    await mkdir(shots, { recursive: true });
    // Proximity alerts are e-mails: the server needs a mail server to offer them.
    smtp = await startSmtp();
    server = await startServer({ env: { SIGHTLINE_SMTP_URL: smtp.url } });
    // A group to save the search in (a new user has none).
    const api = await apiSession(server);
    await api.call('POST', '/api/v1/monitor/monitor-search-groups', { name: 'Sites' });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      await smtp?.close();
    }
  });

  it('adds a place from an address with a radius and draws both', async () => {
    await page.goto(`${server.url}/monitor/configurations`);
    await page.getByText('No location configurations yet').waitFor();
    await page.getByRole('button', { name: 'Add the first place' }).click();
    const dialog = page.getByRole('dialog', { name: 'New location configuration' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(PLACE);
    await dialog.getByRole('combobox', { name: 'Address' }).pressSequentially('Lyon');
    await page.getByRole('option', { name: /^Lyon/ }).first().click();
    await dialog.getByRole('img', { name: /^Bounds of Lyon/ }).waitFor();
    await dialog.getByText(/^Leave empty for [\d.]+ km, which covers the whole place/).waitFor();
    await dialog.getByRole('textbox', { name: 'Proximity radius (km)' }).fill('2.5');
    await page.screenshot({ path: new URL('configuration-editor.png', shots).pathname });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`“${PLACE}” added`).waitFor();

    const row = page
      .getByRole('table', { name: 'Location configurations' })
      .getByRole('row', { name: new RegExp(PLACE) });
    assert.match(await row.textContent(), /Lyon.*2\.5 km/);
    await page.getByRole('button', { name: `Map of ${PLACE}` }).click();
    // The row has opened (its Collapse entered), for the picture.
    await page
      .locator('.MuiCollapse-entered', { has: page.getByRole('img', { name: new RegExp(`^Bounds of ${PLACE}`) }) })
      .waitFor();
    await page.screenshot({ path: new URL('configurations.png', shots).pathname });
  });

  it('is watched by the proximity alert of a new saved search', async () => {
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByLabel('Keywords').fill('harbour');
    await builder.getByLabel('Search name').fill(SEARCH);
    await builder.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Sites' }).click();
    await builder.getByRole('button', { name: /^Alerts/ }).click();
    await builder.getByRole('combobox', { name: 'Proximity locations' }).click();
    await page.getByRole('option', { name: PLACE }).click();
    await page.keyboard.press('Escape');
    await builder.getByRole('button', { name: 'Apply locations' }).click();
    await builder.getByRole('combobox', { name: 'Proximity alerts' }).click();
    await page.getByRole('option', { name: 'Every 5 minutes' }).click();
    await page.screenshot({ path: new URL('configuration-proximity.png', shots).pathname });
    await builder.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Your saved search is running').waitFor();

    const api = await apiSession(server);
    const [configuration] = await api.call('GET', '/api/v1/configurations-manager/configurations');
    const summary = (await api.call('GET', '/api/v1/monitor/searches')).find((s) => s.value === SEARCH);
    const search = await api.call('GET', `/api/v1/monitor/searches/${summary.id}`);
    const proximity = search.notificationSettings.find((n) => n.type === 'proximity');
    assert.deepEqual(proximity?.locationAssetIds, [configuration.fpid]);
  });

  it('imports many places from a CSV file, reporting each line', async () => {
    await page.goto(`${server.url}/monitor/configurations`);
    await page.getByLabel('CSV file of places').setInputFiles({
      name: 'sites.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'name,address,lat,lon,radius\nParis depot,"Paris, France",,,\nLost city,"Atlantis, Narnia",,,\n' +
          'Gate 4,,48.8584,2.2945,150\n',
      ),
    });
    const dialog = page.getByRole('dialog', { name: 'Import places' });
    await dialog.getByText('2 places were added; 1 line was not.').waitFor();
    const report = dialog.getByRole('table', { name: 'Import report' });
    assert.match(await report.getByRole('row', { name: /Lost city/ }).textContent(), /could not find this address/);
    await page.screenshot({ path: new URL('configurations-import.png', shots).pathname });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page
      .getByRole('table', { name: 'Location configurations' })
      .getByRole('row', { name: /Paris depot/ })
      .waitFor();
    const gate = page.getByRole('table', { name: 'Location configurations' }).getByRole('row', { name: /Gate 4/ });
    assert.match(await gate.textContent(), /48\.85840, 2\.29450.*150 m/);
    await page.getByRole('button', { name: 'Map of Gate 4' }).click();
    await page.locator('.MuiCollapse-entered', { has: page.getByRole('img', { name: /^Bounds of Gate 4/ }) }).waitFor();
    await page.screenshot({ path: new URL('configurations-point.png', shots).pathname });
  });
});
