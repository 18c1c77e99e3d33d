import { describe, expect, it } from 'vitest';
import type { NotificationSetting } from '../api/monitor';
import {
  ALERT_KINDS,
  MAX_PROXIMITY_LOCATIONS,
  canApplyProximityLocations,
  hasActiveAlerts,
  offersAlert,
  setAlert,
  setProximityInterval,
  setProximityLocations,
} from './alerts';

const EMAIL = 'ada@example.test';

describe('alert settings', () => {
  it('switches an e-mail alert on to the user’s address, and off again', () => {
    const on = setAlert([], 'batch', 300, EMAIL);
    expect(on).toEqual([{ type: 'batch', interval: 300, destinations: [{ type: 'email', address: EMAIL }] }]);
    expect(setAlert(on, 'batch', 0, EMAIL)).toEqual([]);
  });

  it('keeps destinations already chosen when the interval changes', () => {
    const on = [
      { type: 'digest' as const, interval: 86400, destinations: [{ type: 'email' as const, address: 'team@x' }] },
    ];
    expect(setAlert(on, 'digest', 604800, EMAIL)[0]?.destinations).toEqual([{ type: 'email', address: 'team@x' }]);
  });

  it('leaves destinations empty when the user has no e-mail', () => {
    expect(setAlert([], 'ai_summary', 86400, '')).toEqual([{ type: 'ai_summary', interval: 86400, destinations: [] }]);
  });

  it('sets and clears a webhook', () => {
    const on = setAlert([], 'webhook', 0, ' https://hooks.example.com/x ');
    expect(on).toEqual([
      { type: 'webhook', interval: 0, destinations: [{ type: 'webhook', address: 'https://hooks.example.com/x' }] },
    ]);
    expect(setAlert(on, 'webhook', 0, '')).toEqual([]);
  });

  it('offers the intervals each kind allows, as the server does', () => {
    const seconds = Object.fromEntries(ALERT_KINDS.map((k) => [k.type, k.intervals.map((i) => i.seconds)]));
    expect(seconds).toEqual({
      batch: [0, 60, 300, 1800, 3600],
      digest: [0, 86400, 604800],
      proximity: [0, 300, 1800, 3600],
      ai_summary: [0, 86400],
      webhook: [],
    });
  });

  it('counts a proximity alert kept off with its locations as no alert', () => {
    const off: NotificationSetting[] = [{ type: 'proximity', interval: 0, destinations: [], locationAssetIds: ['a'] }];
    expect(hasActiveAlerts(off)).toBe(false);
    expect(hasActiveAlerts(setAlert(off, 'webhook', 0, 'https://h.example'))).toBe(true);
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
    expect(setProximityInterval([], 300, EMAIL)).toEqual({ alerts: [], refused: true });
    const chosenOff = setProximityLocations([], [], EMAIL);
    expect(setProximityInterval(chosenOff, 1800, EMAIL).refused).toBe(true);
  });

  it('keeps locations chosen while off, then turns on to the user’s e-mail', () => {
    const chosen = setProximityLocations([], ['loc-1', 'loc-2', 'loc-1'], EMAIL);
    expect(chosen).toEqual([
      {
        type: 'proximity',
        interval: 0,
        destinations: [{ type: 'email', address: EMAIL }],
        locationAssetIds: ['loc-1', 'loc-2'],
      },
    ]);
    const { alerts, refused } = setProximityInterval(chosen, 1800, EMAIL);
    expect(refused).toBe(false);
    expect(alerts[0]).toMatchObject({ interval: 1800, locationAssetIds: ['loc-1', 'loc-2'] });
    expect(setProximityInterval(alerts, 0, EMAIL)).toEqual({ alerts: chosen, refused: false });
  });

  it('forces the alert off when its locations are emptied', () => {
    const on = setProximityInterval(setProximityLocations([], ['loc-1'], EMAIL), 300, EMAIL).alerts;
    expect(setProximityLocations(on, [], EMAIL)).toEqual([]);
  });

  it('keeps the interval when the locations change', () => {
    const on = setProximityInterval(setProximityLocations([], ['loc-1'], EMAIL), 3600, EMAIL).alerts;
    expect(setProximityLocations(on, ['loc-2'], EMAIL)[0]).toMatchObject({
      interval: 3600,
      locationAssetIds: ['loc-2'],
    });
  });

  it('leaves other alerts alone', () => {
    const batch = setAlert([], 'batch', 60, EMAIL);
    expect(setProximityLocations(batch, ['loc-1'], EMAIL)[0]).toEqual(batch[0]);
    expect(setProximityInterval(batch, 300, EMAIL).alerts).toEqual(batch);
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
