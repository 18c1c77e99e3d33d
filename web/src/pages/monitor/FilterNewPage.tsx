import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { type FilterListRequest } from '../../api/filters';
import { ApiError } from '../../api/transport';
import { ObjectPicker } from '../../components/ObjectPicker';
import { PageHeader } from '../../components/PageHeader';
import { useEmbedded } from '../../hooks/useEmbedded';
import { useCreateFilterList } from '../../hooks/useFilterListQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { assetLimitOf } from '../../lib/assetLimit';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { postToBuilder } from '../../lib/filterFrame';

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
 * filters/new: a name, a kind and the entries of a new filter list. Inside the search builder's
 * frame (?embedded=1) it tells the builder when it has loaded, when to close and what it created.
 */
export function FilterNewPage() {
  const embedded = useEmbedded();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('keyword_exclusion');
  const [entries, setEntries] = useState('');
  const [objects, setObjects] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateFilterList();
  const showLimit = useLimitDialog();

  useEffect(() => {
    if (embedded) postToBuilder({ type: 'loaded' });
  }, [embedded]);

  const leave = () => {
    if (embedded) postToBuilder({ type: 'closeModal' });
    else void navigate('..', { relative: 'path' });
  };

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
      onSuccess: ({ data: created, message }) => {
        if (embedded) {
          postToBuilder({ type: 'createdFilterList', id: created.id });
        } else {
          snackbar.show({
            color: 'success',
            text: message ? `Filter list created. ${message}` : 'Filter list created',
          });
          void navigate(`../${created.id}`, { relative: 'path' });
        }
      },
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
    <Box sx={embedded ? { p: 2 } : undefined}>
      {!embedded && (
        <>
          <Link component={RouterLink} to=".." relative="path" sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
            <ArrowBackOutlined fontSize="small" /> Back to search filters
          </Link>
          <PageHeader
            title="New filter list"
            subtitle="A name, a kind and the keywords, authors or objects to filter by."
          />
        </>
      )}
      <Stack component="form" spacing={2.5} onSubmit={submit} noValidate sx={{ maxWidth: 720 }}>
        <TextField
          label="Name"
          required
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
        >
          {kinds.map((k) => (
            <MenuItem key={k.id} value={k.id}>
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
          <Button onClick={leave} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            Create filter list
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
