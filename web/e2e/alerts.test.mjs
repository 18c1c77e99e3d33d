// Alerts of an existing saved search, edited on its page: a webhook and an e-mail digest are
// saved, survive a reload, and the delivery history says what happens next.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const WEBHOOK = 'https://hooks.example.com/sightline';
const TEAM = 'team@example.com';

describe('Alerts of a saved search', () => {
  let server;
  let browser;
  let page;
  let searchId;
  let emailDelivery;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    ({ id: searchId } = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour strikes',
      keywords: 'harbour',
      providers: ['reddit'],
    }));
    ({ emailDelivery } = await api.call('GET', '/api/v1/settings/profile/current'));
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  const openAlerts = async () => {
    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Alerts of “Harbour strikes”' });
    await drawer.getByRole('combobox', { name: 'E-mail alerts' }).waitFor();
    return drawer;
  };

  it('saves alerts that are still there after a reload', async () => {
    await page.goto(`${server.url}/monitor/${searchId}`);
    let drawer = await openAlerts();
    const save = drawer.getByRole('button', { name: 'Save alerts' });
    assert.equal(await save.isDisabled(), true);
    assert.equal(await drawer.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue(), 'Off');
    await drawer.getByText(/Nothing has been delivered yet/).waitFor();

    const webhook = drawer.getByRole('group', { name: 'Webhook' });
    await webhook.getByRole('textbox', { name: /Add a webhook URL/ }).fill('ftp://hooks.example.com');
    await webhook.getByRole('button', { name: 'Add to Webhook' }).click();
    await webhook.getByText('The webhook must be an http or https URL.').waitFor();
    await webhook.getByRole('textbox', { name: /Add a webhook URL/ }).fill(WEBHOOK);
    await webhook.getByRole('button', { name: 'Add to Webhook' }).click();
    assert.equal(await drawer.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue(), 'Immediate');

    const digest = drawer.getByRole('group', { name: 'E-mail digest' });
    if (emailDelivery) {
      await digest.getByRole('combobox', { name: 'E-mail digest' }).click();
      await page.getByRole('option', { name: 'Weekly' }).click();
      await digest.getByRole('textbox', { name: /Add an e-mail address/ }).fill(TEAM);
      await digest.getByRole('button', { name: 'Add to E-mail digest' }).click();
    } else {
      // Without SMTP the page says so where e-mail destinations are edited, and keeps them off.
      await drawer.getByText(/E-mail delivery is not configured on this server\./).waitFor();
      await digest.getByRole('combobox', { name: 'E-mail digest' }).click();
      assert.equal(await page.getByRole('option', { name: 'Weekly' }).getAttribute('aria-disabled'), 'true');
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('alerts.png', shots).pathname });

    await save.click();
    await page.getByText('Notification settings saved').waitFor();
    assert.equal(await save.isDisabled(), true);

    await page.reload();
    drawer = await openAlerts();
    assert.equal(await drawer.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue(), 'Immediate');
    await drawer.getByRole('list', { name: 'Destinations of Webhook' }).getByText(WEBHOOK).waitFor();
    if (emailDelivery) {
      assert.equal(await drawer.getByRole('combobox', { name: 'E-mail digest' }).textContent(), 'Weekly');
      await drawer.getByRole('list', { name: 'Destinations of E-mail digest' }).getByText(TEAM).waitFor();
    }
    assert.equal(await drawer.getByRole('button', { name: 'Save alerts' }).isDisabled(), true);
  });

  it('asks before closing with an unsaved change', async () => {
    await page.goto(`${server.url}/monitor/${searchId}`);
    const drawer = await openAlerts();
    await drawer.getByRole('button', { name: `Remove ${WEBHOOK}` }).click();
    await drawer.getByRole('button', { name: 'Close alerts' }).click();
    const ask = page.getByRole('dialog', { name: 'Save the alerts before leaving?' });
    await ask.getByRole('button', { name: 'Discard and leave' }).click();
    await drawer.waitFor({ state: 'detached' });

    const again = await openAlerts();
    assert.equal(await again.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue(), 'Immediate');
  });
});
