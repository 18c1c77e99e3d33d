// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { NotificationSetting } from '../api/monitor';
import {
  addDestination,
  ALERT_KINDS,
  canApplyProximityLocations,
  channelOf,
  hasActiveAlerts,
  intervalLabel,
  intervalName,
  KEEP_ONE_DESTINATION,
  MAX_PROXIMITY_LOCATIONS,
  offersAlert,
  removeDestination,
  setAlertInterval,
  setProximityInterval,
  setProximityLocations,
  settingsToSave,
} from './alerts';
import { testAlertChannels as CHANNELS } from '../test/fixtures';

const EMAIL = 'ada@example.test';


describe('alert settings', () => {
  it('switches an e-mail alert on to the user’s address, and off keeping it', () => {
    const on = setAlertInterval([], 'batch', 300, EMAIL, CHANNELS);
    expect(on).toEqual([{ type: 'batch', interval: 300, destinations: [{ type: 'email', address: EMAIL }] }]);
    expect(setAlertInterval(on, 'batch', 0, EMAIL, CHANNELS)).toEqual([
      { type: 'batch', interval: 0, destinations: [{ type: 'email', address: EMAIL }] },
    ]);
  });

  it('keeps destinations already chosen when the interval changes', () => {
    const on = [
      { type: 'digest' as const, interval: 86400, destinations: [{ type: 'email' as const, address: 'team@x.test' }] },
    ];
    expect(setAlertInterval(on, 'digest', 604800, EMAIL, CHANNELS)[0]?.destinations).toEqual([
      { type: 'email', address: 'team@x.test' },
    ]);
  });

  it('changes a setting where it stands in the list', () => {
    const stored: NotificationSetting[] = [
      { type: 'batch', interval: 0, destinations: [] },
      { type: 'digest', interval: 0, destinations: [] },
    ];
    expect(setAlertInterval(stored, 'batch', 60, EMAIL, CHANNELS).map((a) => [a.type, a.interval])).toEqual([
      ['batch', 60],
      ['digest', 0],
    ]);
  });

  it('gives the user’s address only where the channel takes it by default', () => {
    const noDefault = CHANNELS.map((c) => ({ ...c, defaultsToUserEmail: false }));
    expect(setAlertInterval([], 'batch', 300, EMAIL, noDefault)[0]?.destinations).toEqual([]);
  });

  it('leaves destinations empty when the user has no e-mail', () => {
    expect(setAlertInterval([], 'ai_summary', 86400, '', CHANNELS)).toEqual([
      { type: 'ai_summary', interval: 86400, destinations: [] },
    ]);
  });

  // The intervals come from the server's table (contracts.gen.ts); each needs a name a person reads.
  it('names every interval the server offers', () => {
    for (const kind of ALERT_KINDS) {
      for (const interval of kind.intervals) expect(interval.label).not.toMatch(/seconds/);
    }
    expect(intervalName(90)).toBe('Every 90 seconds');
  });

  it.each([
    { setting: undefined, label: 'Off' },
    { setting: { type: 'batch' as const, interval: 60, destinations: [] }, label: 'Every minute' },
    { setting: { type: 'batch' as const, interval: 1800, destinations: [] }, label: 'Every 30 minutes' },
    { setting: { type: 'digest' as const, interval: 604800, destinations: [] }, label: 'Weekly' },
    { setting: { type: 'ai_summary' as const, interval: 86400, destinations: [] }, label: 'Daily' },
    { setting: { type: 'webhook' as const, interval: 0, destinations: [] }, label: 'Off' },
    {
      setting: {
        type: 'webhook' as const,
        interval: 0,
        destinations: [{ type: 'webhook' as const, address: 'https://h.test' }],
      },
      label: 'Immediate',
    },
  ])('labels $setting.type at $setting.interval as $label', ({ setting, label }) => {
    expect(intervalLabel(setting)).toBe(label);
  });

  it('counts a proximity alert kept off with its locations, or a webhook without webhooks, as no alert', () => {
    const off: NotificationSetting[] = [
      { type: 'proximity', interval: 0, destinations: [], locationAssetIds: ['a'] },
      { type: 'webhook', interval: 0, destinations: [] },
    ];
    expect(hasActiveAlerts(off)).toBe(false);
    const added = addDestination(off, 'webhook', 'https://h.example', CHANNELS);
    expect(added.error).toBeUndefined();
    if (added.error === undefined) expect(hasActiveAlerts(added.alerts)).toBe(true);
  });
});

describe('destinations', () => {
  const on: NotificationSetting[] = [
    { type: 'batch', interval: 60, destinations: [{ type: 'email', address: EMAIL }] },
    { type: 'digest', interval: 0, destinations: [] },
    { type: 'webhook', interval: 0, destinations: [{ type: 'webhook', address: 'https://hooks.example.com/a' }] },
  ];

  const email = channelOf(CHANNELS, 'batch');
  const webhook = channelOf(CHANNELS, 'webhook');

  it('finds the channel of each kind from the server’s description', () => {
    expect(['batch', 'digest', 'proximity', 'ai_summary'].map((t) => channelOf(CHANNELS, t as 'batch')?.name)).toEqual([
      'email',
      'email',
      'email',
      'email',
    ]);
    expect(webhook?.name).toBe('webhook');
    expect(addDestination(on, 'batch', EMAIL, [])).toEqual({ error: 'This server has no channel for this alert.' });
  });

  it.each([
    { type: 'batch' as const, input: ' team@example.com ', error: undefined, added: 'team@example.com' },
    { type: 'batch' as const, input: 'not an address', error: email?.invalidMessage },
    { type: 'batch' as const, input: 'team@example', error: email?.invalidMessage },
    { type: 'batch' as const, input: '', error: email?.invalidMessage },
    { type: 'batch' as const, input: 'ADA@example.test', error: email?.duplicateMessage },
    { type: 'digest' as const, input: EMAIL, error: undefined, added: EMAIL },
    {
      type: 'webhook' as const,
      input: 'http://hooks.example.com/b',
      error: undefined,
      added: 'http://hooks.example.com/b',
    },
    { type: 'webhook' as const, input: 'HTTPS://HOOKS.EXAMPLE.COM/C', error: undefined, added: 'HTTPS://HOOKS.EXAMPLE.COM/C' },
    { type: 'webhook' as const, input: 'ftp://hooks.example.com/b', error: webhook?.invalidMessage },
    { type: 'webhook' as const, input: 'hooks.example.com', error: webhook?.invalidMessage },
    { type: 'webhook' as const, input: 'https://hooks.example.com/a', error: webhook?.duplicateMessage },
  ])('adds “$input” to $type: $error', ({ type, input, error, added }) => {
    const change = addDestination(on, type, input, CHANNELS);
    expect(change.error).toBe(error);
    if (change.error === undefined) {
      expect(change.alerts.find((a) => a.type === type)?.destinations.at(-1)).toEqual({
        type: channelOf(CHANNELS, type)?.name,
        address: added,
      });
    }
  });

  it('keeps the last e-mail of an alert that is on', () => {
    expect(removeDestination(on, 'batch', EMAIL)).toEqual({ error: KEEP_ONE_DESTINATION });
    const two = addDestination(on, 'batch', 'team@example.com', CHANNELS);
    if (two.error !== undefined) throw new Error(two.error);
    const one = removeDestination(two.alerts, 'batch', EMAIL);
    expect(one.error).toBeUndefined();
    if (one.error === undefined)
      expect(one.alerts[0]?.destinations).toEqual([{ type: 'email', address: 'team@example.com' }]);
  });

  it('removes the last webhook, which turns the webhook off', () => {
    const change = removeDestination(on, 'webhook', 'https://hooks.example.com/a');
    if (change.error !== undefined) throw new Error(change.error);
    expect(intervalLabel(change.alerts.find((a) => a.type === 'webhook'))).toBe('Off');
  });

  it('sends every stored type, with a type the draft dropped as off', () => {
    const stored: NotificationSetting[] = [
      { type: 'batch', interval: 60, destinations: [{ type: 'email', address: EMAIL }], lastUpdatedAt: 5 },
      { type: 'proximity', interval: 300, destinations: [], locationAssetIds: ['loc-1'], lastUpdatedAt: null },
    ];
    const draft = setAlertInterval([], 'batch', 300, EMAIL, CHANNELS);
    expect(settingsToSave(stored, draft)).toEqual([
      { type: 'batch', interval: 300, destinations: [{ type: 'email', address: EMAIL }], locationAssetIds: [] },
      { type: 'proximity', interval: 0, destinations: [], locationAssetIds: [] },
    ]);
  });
});

describe('who is offered which alert', () => {
  const cases: {
    name: string;
    flags: Record<string, boolean>;
    ecs: boolean;
    moose: boolean;
    proximity: boolean;
    aiSummary: boolean;
  }[] = [
    { name: 'no flags', flags: {}, ecs: false, moose: true, proximity: false, aiSummary: false },
    {
      name: 'proximity flag',
      flags: { proximity_notifications: true },
      ecs: false,
      moose: false,
      proximity: true,
      aiSummary: false,
    },
    {
      name: 'proximity flag, ECS tenant',
      flags: { proximity_notifications: true },
      ecs: true,
      moose: false,
      proximity: false,
      aiSummary: false,
    },
    {
      name: 'AI flag without the AI feature',
      flags: { ai_summary_notifications: true },
      ecs: false,
      moose: false,
      proximity: false,
      aiSummary: false,
    },
    {
      name: 'AI flag with the AI feature',
      flags: { ai_summary_notifications: true },
      ecs: false,
      moose: true,
      proximity: false,
      aiSummary: true,
    },
  ];
  it.each(cases)('$name', ({ flags, ecs, moose, proximity, aiSummary }) => {
    const profile = { organization: { feature_flags: flags, is_moose_mind_enabled: moose }, tenant: { is_ecs: ecs } };
    expect(offersAlert(profile, 'proximity')).toBe(proximity);
    expect(offersAlert(profile, 'ai_summary')).toBe(aiSummary);
    expect(offersAlert(profile, 'batch')).toBe(true);
    expect(offersAlert(profile, 'digest')).toBe(true);
    expect(offersAlert(profile, 'webhook')).toBe(true);
  });
});

describe('proximity alerts', () => {
  it('refuses an interval without locations and stays off', () => {
    const refused = setProximityInterval([], 300, EMAIL, CHANNELS);
    expect(refused.refused).toBe(true);
    expect(refused.alerts).toEqual([{ type: 'proximity', interval: 0, destinations: [] }]);
    const chosenNone = setProximityLocations([], []);
    expect(setProximityInterval(chosenNone, 1800, EMAIL, CHANNELS).refused).toBe(true);
  });

  it('keeps locations chosen while off, then turns on to the user’s e-mail', () => {
    const chosen = setProximityLocations([], ['loc-1', 'loc-2', 'loc-1']);
    expect(chosen).toEqual([
      { type: 'proximity', interval: 0, destinations: [], locationAssetIds: ['loc-1', 'loc-2'] },
    ]);
    const { alerts, refused } = setProximityInterval(chosen, 1800, EMAIL, CHANNELS);
    expect(refused).toBe(false);
    expect(alerts[0]).toEqual({
      type: 'proximity',
      interval: 1800,
      destinations: [{ type: 'email', address: EMAIL }],
      locationAssetIds: ['loc-1', 'loc-2'],
    });
    expect(setProximityInterval(alerts, 0, EMAIL, CHANNELS).alerts[0]).toMatchObject({
      interval: 0,
      locationAssetIds: ['loc-1', 'loc-2'],
    });
  });

  it('forces the alert off when its locations are emptied', () => {
    const on = setProximityInterval(setProximityLocations([], ['loc-1']), 300, EMAIL, CHANNELS).alerts;
    expect(setProximityLocations(on, [])[0]).toMatchObject({ interval: 0, locationAssetIds: [] });
  });

  it('keeps the interval when the locations change', () => {
    const on = setProximityInterval(setProximityLocations([], ['loc-1']), 3600, EMAIL, CHANNELS).alerts;
    expect(setProximityLocations(on, ['loc-2'])[0]).toMatchObject({
      interval: 3600,
      locationAssetIds: ['loc-2'],
    });
  });

  it('leaves other alerts alone', () => {
    const batch = setAlertInterval([], 'batch', 60, EMAIL, CHANNELS);
    expect(setProximityLocations(batch, ['loc-1'])[0]).toEqual(batch[0]);
    expect(setProximityInterval(batch, 300, EMAIL, CHANNELS).alerts[0]).toEqual(batch[0]);
  });

  it.each([
    { selected: 0, available: 0, ok: false },
    { selected: 0, available: 3, ok: true },
    { selected: MAX_PROXIMITY_LOCATIONS, available: 20, ok: true },
    { selected: MAX_PROXIMITY_LOCATIONS + 1, available: 20, ok: false },
  ])('applies $selected of $available locations: $ok', ({ selected, available, ok }) => {
    expect(canApplyProximityLocations(selected, available)).toBe(ok);
  });
});
