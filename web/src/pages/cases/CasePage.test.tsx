import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Case } from '../../api/cases';
import { ExportToastProvider } from '../../components/export/ExportToastProvider';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { CasePage } from './CasePage';

const user = userEvent.setup({ delay: null });

// The app's router matches every path; the page reads its case's id from /cases/:id.
// The shell gives every page the export toasts the live channel reports to.
const page = (
  <ExportToastProvider>
    <Routes>
      <Route path="/cases/:id" element={<CasePage />} />
    </Routes>
  </ExportToastProvider>
);

const ada = { id: 1, name: 'Ada Analyst', email: 'ada@example.test', username: 'ada' };

const aCase: Case = {
  id: 4,
  name: 'Harbour strike',
  status: 'in_progress',
  privacy: 'readonly',
  tags: ['ports'],
  assignees: [ada],
  owner: ada,
  itemCount: 2,
  canEdit: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-02T10:00:00Z',
  description: 'Strikes at the harbour.',
  canManageSharing: true,
  canDelete: true,
  sharedUsers: [],
  items: [
    {
      id: 11,
      kind: 'post',
      ref: 'p1',
      title: 'Strike at dawn',
      note: 'Names the time.',
      post: {
        id: 'p1',
        provider: 'reddit',
        native_id: '1',
        content_type: 'thread_post',
        content_text: 'Strike at the harbour of Rotterdam at dawn.',
        published_at: '2026-11-01T09:00:00Z',
        discovered_at: '2026-11-01T09:01:00Z',
        entities: {},
        threat: { score: 0, level: 'low', signals: [] },
      } as unknown as NonNullable<Case['items'][number]['post']>,
      addedBy: ada,
      createdAt: '2026-11-01T10:00:00Z',
      updatedAt: '2026-11-01T10:00:00Z',
    },
    {
      id: 12,
      kind: 'evidence',
      ref: 'ev-1',
      title: '',
      note: '',
      post: null,
      addedBy: ada,
      createdAt: '2026-11-01T11:00:00Z',
      updatedAt: '2026-11-01T11:00:00Z',
    },
  ],
  timeline: [
    {
      id: 1,
      action: 'created',
      summary: 'created the case "Harbour strike"',
      actor: 'Ada Analyst',
      createdAt: '2026-11-01T10:00:00Z',
    },
  ],
  comments: [],
  places: [{ name: 'Rotterdam', countryCode: 'NL', lat: 51.9, lon: 4.5, items: [1] }],
  evidenceAvailable: true,
};

describe('CasePage', () => {
  it('shows the items with their notes, the evidence, the places and the timeline, and saves a note', async () => {
    const requests = fakeServer({
      'GET /api/v1/cases/4': { data: aCase },
      'GET /api/v1/evidence/ev-1': {
        data: {
          id: 'ev-1',
          state: 'done',
          capturedAt: '2026-11-01T11:00:00Z',
          capturedBy: 'Ada Analyst',
          files: [{ name: 'page.warc', sha256: 'ab'.repeat(32), size: 120 }],
          timestamps: [],
        },
      },
      'PATCH /api/v1/cases/4/items/11': { data: { id: 11 } },
    });
    renderWithApp(page, { profile: testProfile(), path: '/cases/4' });
    expect(await screen.findByRole('heading', { name: 'Harbour strike', level: 1 })).toBeInTheDocument();
    const item = screen.getByRole('article', { name: 'Item 1: Strike at dawn' });
    expect(within(item).getByText('Strike at the harbour of Rotterdam at dawn.')).toBeInTheDocument();
    expect(await screen.findByText(/page\.warc · SHA-256 abab/)).toBeInTheDocument();
    expect(screen.getByText('No trusted timestamp.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Places of the items' })).getByText(/Rotterdam \(NL\) · item 1/),
    ).toBeInTheDocument();
    expect(screen.getByText('Ada Analyst created the case "Harbour strike"')).toBeInTheDocument();
    const note = within(item).getByLabelText('Note');
    await user.clear(note);
    await user.type(note, 'Names the time and place.');
    await user.click(within(item).getByRole('button', { name: 'Save note' }));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ note: 'Names the time and place.' });
  });

  it('says a case it may not see was not found', async () => {
    fakeServer({ 'GET /api/v1/cases/4': new Reply(404, { message: 'The case was not found.' }) });
    renderWithApp(page, { profile: testProfile(), path: '/cases/4' });
    expect(await screen.findByText('This case was not found')).toBeInTheDocument();
  });
});
