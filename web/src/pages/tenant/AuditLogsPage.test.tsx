import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditRow } from '../../api/audit';
import { fakeServer, type Request } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const LIST = 'GET /api/v1/tenant/audit-logs';

function row(id: number, overrides: Partial<AuditRow> = {}): AuditRow {
  return {
    id,
    model: 'search',
    model_id: '7',
    action: 'updated',
    actor: { id: 2, name: 'Olu Owner', email: 'olu@example.test' },
    organization: { id: 1, name: 'Default' },
    previous_value: { keywords: 'flood' },
    new_value: { keywords: 'flood OR inondation' },
    created_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

const page = (rows: AuditRow[], total = rows.length, current = 1) => ({
  data: {
    data: rows,
    meta: { current_page: current, last_page: Math.max(1, Math.ceil(total / 50)), per_page: 50, total },
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('audit logs page', () => {
  it('shows each change with its previous and new values, and filters by model', async () => {
    const requests = fakeServer({
      [LIST]: (r: Request) =>
        r.query.get('model') === 'group'
          ? page([row(2, { model: 'group', action: 'created', previous_value: null, new_value: { name: 'Floods' } })])
          : page([row(1)]),
    });
    renderApp('/tenant/audit-logs', { profile: testProfile({ is_tenant_admin: true }) });
    const table = await screen.findByRole('table', { name: 'Audit logs' });
    const cells = within(table).getAllByRole('row').at(1)?.textContent;
    expect(cells).toContain('keywords: flood');
    expect(cells).toContain('keywords: flood OR inondation');
    expect(cells).toContain('Olu Owner');

    await userEvent.click(screen.getByRole('combobox', { name: 'Model' }));
    await userEvent.click(screen.getByRole('option', { name: 'group' }));
    expect(await screen.findByText('name: Floods')).toBeInTheDocument();
    expect(requests.at(-1)?.query.get('model')).toBe('group');
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/v1/tenant/audit-logs.csv?model=group',
    );
  });

  it('cuts long values until expanded and pages through the log', async () => {
    const long = { keywords: 'x'.repeat(300) };
    const requests = fakeServer({
      [LIST]: (r: Request) =>
        page([row(Number(r.query.get('page')), { new_value: long })], 120, Number(r.query.get('page'))),
    });
    renderApp('/tenant/audit-logs', { profile: testProfile({ is_tenant_admin: true }) });
    const more = await screen.findByRole('button', { name: 'Show all of the new value' });
    expect(screen.queryByText(`keywords: ${'x'.repeat(300)}`)).not.toBeInTheDocument();
    await userEvent.click(more);
    expect(screen.getByText(`keywords: ${'x'.repeat(300)}`)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText(/page 3 of 3/)).toBeInTheDocument();
    expect(requests.at(-1)?.query.get('page')).toBe('3');
  });

  it('says when nothing matches and offers to clear the filters', async () => {
    fakeServer({ [LIST]: page([]) });
    renderApp('/tenant/audit-logs?action=deleted', { profile: testProfile({ is_tenant_admin: true }) });
    expect(await screen.findByText('No entries match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeInTheDocument();
  });

  it('is for tenant admins only', async () => {
    const requests = fakeServer({ [LIST]: page([row(1)]) });
    renderApp('/tenant/audit-logs', { profile: testProfile({ is_tenant_admin: false }) });
    // The portal does not exist for anyone else.
    expect(await screen.findByText('You seem lost')).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/v1/tenant/audit-logs')).toBe(false);
  });
});
