import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import type { FilterListChange, FilterListRequest } from '../../api/filters';
import { ApiError } from '../../api/transport';
import { useCreateFilterList } from '../../hooks/useFilterListQueries';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { assetLimitOf } from '../../lib/assetLimit';
import { ObjectPicker } from '../ObjectPicker';

const kinds = [
  { id: 'keyword_inclusion', label: 'Keyword inclusion: posts must contain one of the keywords' },
  { id: 'keyword_exclusion', label: 'Keyword exclusion: posts must contain none of the keywords' },
  { id: 'author_exclusion', label: 'Author exclusion: posts by these authors are left out' },
  { id: 'object_detection', label: 'Object detection: pictures must show one of the objects' },
] as const;

type Kind = (typeof kinds)[number]['id'];

function requestOf(name: string, kind: Kind, entries: string[]): FilterListRequest {
  switch (kind) {
    case 'keyword_inclusion':
      return { name, type: 'keyword', inclusion: true, keywords: entries };
    case 'keyword_exclusion':
      return { name, type: 'keyword', inclusion: false, keywords: entries };
    case 'author_exclusion':
      return { name, type: 'author', authors: entries };
    case 'object_detection':
      return { name, type: 'object_detection', objects: entries };
  }
}

/**
 * A new filter list's name, kind and entries (monitor-area.md section 5: a name, a type and at
 * least one keyword), created on submit. objectsDisabled, when given, is why the object-detection
 * kind cannot be chosen here (search-side.md section 6: disabled for quick search).
 */
export function FilterListForm({
  onCreated,
  onCancel,
  objectsDisabled,
  autoFocus = false,
}: {
  onCreated: (change: FilterListChange) => void;
  onCancel: () => void;
  objectsDisabled?: string;
  autoFocus?: boolean;
}) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('keyword_exclusion');
  const [entries, setEntries] = useState('');
  const [objects, setObjects] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateFilterList();
  const showLimit = useLimitDialog();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list =
      kind === 'object_detection'
        ? objects
        : entries
            .split(/[\n,]/)
            .map((entry) => entry.trim())
            .filter(Boolean);
    const fieldErrors: Record<string, string[]> = {};
    if (name.trim() === '') fieldErrors.name = ['Name is required'];
    if (list.length === 0) fieldErrors.entries = ['Add at least one entry.'];
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    setFailure(null);
    create.mutate(requestOf(name.trim(), kind, list), {
      onSuccess: onCreated,
      onError: (error) => {
        const reply = error instanceof ApiError ? error.body : undefined;
        const reached = assetLimitOf(error);
        if (reached) {
          showLimit(reached);
          return;
        }
        if (reply?.errors) {
          const { keywords, authors, objects, ...rest } = reply.errors;
          setErrors({ ...rest, entries: [...(keywords ?? []), ...(authors ?? []), ...(objects ?? [])] });
        }
        setFailure(error.message);
      },
    });
  };

  return (
    <Stack component="form" spacing={2.5} onSubmit={submit} noValidate sx={{ maxWidth: 720, pt: 1 }}>
      <TextField
        label="Name"
        required
        autoFocus={autoFocus}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={Boolean(errors.name?.length)}
        helperText={errors.name?.join(' ')}
        disabled={create.isPending}
      />
      <TextField
        select
        label="Kind"
        value={kind}
        onChange={(event) => setKind(event.target.value as Kind)}
        disabled={create.isPending}
        helperText={objectsDisabled}
      >
        {kinds.map((k) => (
          <MenuItem key={k.id} value={k.id} disabled={k.id === 'object_detection' && Boolean(objectsDisabled)}>
            {k.label}
          </MenuItem>
        ))}
      </TextField>
      {kind === 'object_detection' ? (
        <ObjectPicker
          label="Objects"
          value={objects}
          onChange={setObjects}
          disabled={create.isPending}
          error={errors.entries?.join(' ')}
        />
      ) : (
        <TextField
          label={kind === 'author_exclusion' ? 'Authors' : 'Keywords'}
          required
          multiline
          minRows={5}
          value={entries}
          onChange={(event) => setEntries(event.target.value)}
          error={Boolean(errors.entries?.length)}
          helperText={
            errors.entries?.join(' ') || 'One per line, or separated by commas. Keywords need at least 3 characters.'
          }
          disabled={create.isPending}
        />
      )}
      {failure && <Alert severity="error">{failure}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          Create filter list
        </Button>
      </Stack>
    </Stack>
  );
}
