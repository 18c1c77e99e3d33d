import type { Evidence } from '../api/evidence';

/** A finished capture of post p-1 with two files and one timestamp; overrides change any field. */
export function testEvidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    id: '5',
    kind: 'post',
    target: 'p-1',
    state: 'done',
    progress: 100,
    step: '',
    createdAt: '2026-11-28T03:00:00Z',
    capturedAt: '2026-11-28T03:00:01Z',
    capturedBy: 'Ada <ada@example.test>',
    automatic: false,
    previousId: null,
    deletedAt: null,
    files: [
      { name: 'page.warc', sha256: 'ab'.repeat(32), size: 2048 },
      { name: 'post.json', sha256: 'cd'.repeat(32), size: 512 },
    ],
    timestamps: [{ tsa: 'https://tsa.example/tsr', time: '2026-11-28T03:00:02Z' }],
    errors: [],
    warnings: [],
    ...overrides,
  };
}
