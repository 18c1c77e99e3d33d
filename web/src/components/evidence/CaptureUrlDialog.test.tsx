import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CaseSummary } from '../../api/cases';
import type { Evidence } from '../../api/evidence';
import { testEvidence } from '../../test/evidenceFixtures';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { CaptureUrlButton } from './CaptureUrlDialog';

const user = userEvent.setup({ delay: null });

const page = (overrides: Partial<Evidence> = {}) =>
  testEvidence({
    id: '9',
    kind: 'url',
    target: 'https://news.example/harbour',
    files: [
      { name: 'capture.json', sha256: '12'.repeat(32), size: 300 },
      { name: 'page.warc', sha256: 'ab'.repeat(32), size: 4096 },
    ],
    ...overrides,
  });

const aCase = (id: number, name: string): CaseSummary => ({
  id,
  name,
  status: 'open',
  privacy: 'private',
  tags: [],
  assignees: [],
  owner: { id: 1, name: 'Ada', email: 'ada@example.test', username: 'ada' },
  itemCount: 0,
  canEdit: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
});

describe('CaptureUrlButton', () => {
  it('says what is wrong with an address and sends nothing', async () => {
    const requests = fakeServer({});
    renderWithApp(<CaptureUrlButton />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Capture a web page' });
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), 'news.example/harbour');
    await user.click(within(dialog).getByRole('button', { name: 'Capture' }));
    expect(within(dialog).getByText('The address must be an absolute http or https URL.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Address/ })).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((r) => r.path === '/api/v1/evidence')).toEqual([]);
  });

  it('shows the server’s refusal on the address', async () => {
    fakeServer({
      'POST /api/v1/evidence': new Reply(422, {
        message: 'The address must be an absolute http or https URL.',
        errors: { url: ['The address is not allowed.'] },
      }),
    });
    renderWithApp(<CaptureUrlButton />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Capture a web page' });
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), 'http://169.254.169.254/');
    await user.click(within(dialog).getByRole('button', { name: 'Capture' }));
    expect(await within(dialog).findByText('The address is not allowed.')).toBeInTheDocument();
  });

  it('captures the address, follows its progress, shows the record and offers to add it to a case', async () => {
    let state: Partial<Evidence> = { state: 'running', progress: 20, step: 'page', files: [], timestamps: [] };
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '9' } }),
      'GET /api/v1/evidence/9': () => ({ data: page(state) }),
      'GET /api/v1/cases': { data: [aCase(3, 'Harbour strike')] },
      'POST /api/v1/cases/3/items': new Reply(201, { data: { id: 11 } }),
    });
    renderWithApp(<CaptureUrlButton />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Capture a web page' });
    // Without a case around it, the dialog does not offer one before the capture.
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), ' https://news.example/harbour ');
    await user.click(within(dialog).getByRole('button', { name: 'Capture' }));
    expect(await within(dialog).findByText('Fetching the page')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ url: 'https://news.example/harbour' });
    expect(within(dialog).getByText('Record 9 of https://news.example/harbour')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Capture progress' })).toHaveAttribute(
      'aria-valuenow',
      '20',
    );
    expect(within(dialog).queryByRole('link', { name: 'Download bundle' })).toBeNull();

    state = { errors: ['browser: Chromium is not installed on the server'], state: 'partial', timestamps: [] };
    expect(await within(dialog).findByText('Captured in part', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(dialog).getByText('browser: Chromium is not installed on the server')).toBeInTheDocument();
    const files = within(dialog).getByRole('table', { name: 'Files' });
    expect(within(files).getByRole('link', { name: 'page.warc' })).toHaveAttribute(
      'href',
      '/api/v1/evidence/9/files/page.warc',
    );
    expect(within(files).getByText('ab'.repeat(32))).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download bundle' })).toHaveAttribute(
      'href',
      '/api/v1/evidence/9/bundle',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Add to case' }));
    const add = await screen.findByRole('dialog', { name: 'Add to case' });
    await within(add).findByText('Harbour strike');
    expect(within(add).getByText('Why this capture matters to the case.')).toBeInTheDocument();
    await user.click(within(add).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Added to the case “Harbour strike”.')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/cases/3/items')?.body).toEqual({ evidenceId: '9', note: '' });
  });

  it('on a case page, adds the capture to that case with its note', async () => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '9' } }),
      'GET /api/v1/evidence/9': { data: page() },
      'POST /api/v1/cases/3/items': new Reply(201, { data: { id: 11 } }),
    });
    renderWithApp(<CaptureUrlButton intoCase={{ id: 3, name: 'Harbour strike' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Capture a web page' });
    const into = within(dialog).getByRole('checkbox', { name: 'Add the capture to the case “Harbour strike”' });
    expect(into).toBeChecked();
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), 'https://news.example/harbour');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'The port authority’s notice.');
    await user.click(within(dialog).getByRole('button', { name: 'Capture' }));
    expect(await screen.findByText('The capture was added to the case “Harbour strike”.')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/cases/3/items')?.body).toEqual({
      evidenceId: '9',
      note: 'The port authority’s notice.',
    });
    expect(await within(dialog).findByText('Captured')).toBeInTheDocument();
    // It is in the case already: no second "Add to case".
    expect(within(dialog).queryByRole('button', { name: 'Add to case' })).toBeNull();
  });

  it('on a case page, leaves the case alone when told to', async () => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '9' } }),
      'GET /api/v1/evidence/9': { data: page() },
    });
    renderWithApp(<CaptureUrlButton intoCase={{ id: 3, name: 'Harbour strike' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Capture a web page' });
    await user.click(within(dialog).getByRole('checkbox'));
    expect(within(dialog).queryByRole('textbox', { name: 'Note' })).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), 'https://news.example/harbour');
    await user.click(within(dialog).getByRole('button', { name: 'Capture' }));
    expect(await within(dialog).findByText('Captured')).toBeInTheDocument();
    expect(requests.filter((r) => r.path.startsWith('/api/v1/cases'))).toEqual([]);
  });
});
