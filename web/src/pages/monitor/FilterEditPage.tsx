import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type FormEvent, type ReactNode, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/transport';
import { entriesOf, type FilterList, type FilterListChange } from '../../api/filters';
import { EmptyState } from '../../components/EmptyState';
import { ObjectPicker } from '../../components/ObjectPicker';
import { PageHeader } from '../../components/PageHeader';
import { useConfirm } from '../../hooks/useConfirm';
import {
  type FilterEntriesChange,
  useChangeFilterEntries,
  useDeleteFilterList,
  useFilterListQuery,
  useUpdateFilterList,
} from '../../hooks/useFilterListQueries';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { useSnackbar } from '../../hooks/useSnackbar';
import { assetLimitOf } from '../../lib/assetLimit';
import { readText } from '../../lib/fileText';
import { countOf, kindLabels, levelLabels } from './filterLabels';

// Texts of monitor-area.md section 6 and the server's limits (docs/decisions.md, "Filter lists").
export const DELETE_OWNER_MESSAGE = 'You are unable to delete this filter. You must be the filter owner to do so.';
const MAX_UPLOAD_BYTES = 2 << 20;
/** Entries shown at once; the search box finds the others in long lists. */
const SHOWN_ENTRIES = 200;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
}

/** filters/{id}: a list's name, inclusion, entries, access, the searches using it, and delete. */
export function FilterEditPage() {
  const id = Number(useParams().id);
  const list = useFilterListQuery(id);
  const back = (
    <Link component={RouterLink} to=".." relative="path" sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
      <ArrowBackOutlined fontSize="small" /> Back to search filters
    </Link>
  );
  if (list.isPending) {
    return (
      <Stack spacing={2} role="status" aria-label="Loading the filter list">
        <Skeleton variant="text" width={320} height={48} />
        <Skeleton variant="rounded" height={120} />
        <Skeleton variant="rounded" height={240} />
      </Stack>
    );
  }
  if (list.isError) {
    const missing = list.error instanceof ApiError && (list.error.status === 404 || list.error.status === 403);
    return (
      <>
        {back}
        <EmptyState
          icon={FilterAltOutlined}
          title={missing ? 'This filter list does not exist' : 'The filter list could not be loaded'}
          actions={
            missing ? undefined : (
              <Button variant="contained" onClick={() => void list.refetch()}>
                Try again
              </Button>
            )
          }
        >
          {missing
            ? 'It may have been deleted, or it belongs to another organization. Go back to search filters to pick another.'
            : list.error.message}
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {back}
      <Editor list={list.data} />
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = `section-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2.5 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Editor({ list }: { list: FilterList }) {
  const level = list.userPermissionLevel;
  const canEdit = level !== 'view';

  return (
    <>
      <PageHeader
        title={list.name}
        subtitle={`${kindLabels[list.kind]} · ${countOf(entriesOf(list).length, 'entry', 'entries')} · owned by ${list.owner.email}`}
      />
      <Stack spacing={3} sx={{ maxWidth: 880 }}>
        {!canEdit && (
          <Alert severity="info">
            You can view this list. The organization's owners and admins and the list's owner can change it.
          </Alert>
        )}
        <DetailsSection list={list} />
        <EntriesSection list={list} />
        <Section title="Access">
          <Typography>
            Owner: <strong>{list.owner.email}</strong>. Your access: <strong>{levelLabels[level]}</strong>.
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Everyone in the organization can see this list. Owners and admins of the organization can rename it and
            change its entries; other members can view it. Only the list's owner can attach it to saved searches, switch
            it between inclusion and exclusion, or delete it.
          </Typography>
        </Section>
        <Section title="Used by">
          {list.searches.length === 0 ? (
            <Typography color="text.secondary">
              No saved search you can see uses this list. Its owner attaches it in the search builder's Search filters
              panel.
            </Typography>
          ) : (
            <List dense aria-label="Saved searches using this list">
              {list.searches.map((s) => (
                <ListItem key={s.id} disableGutters>
                  <Link component={RouterLink} to={`/monitor/${s.id}`}>
                    {s.name}
                  </Link>
                </ListItem>
              ))}
            </List>
          )}
        </Section>
        <DeleteSection list={list} />
      </Stack>
    </>
  );
}

function DetailsSection({ list }: { list: FilterList }) {
  const snackbar = useSnackbar();
  const [name, setName] = useState(list.name);
  const [inclusion, setInclusion] = useState(list.inclusion);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateFilterList(list);
  const saving = update.isPending;
  const canEdit = list.userPermissionLevel !== 'view';
  const isOwner = list.userPermissionLevel === 'owner';
  const changed = name.trim() !== list.name || inclusion !== list.inclusion;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setNameError('Name is required');
      return;
    }
    setNameError(null);
    setFailure(null);
    const body: { name?: string; inclusion?: boolean } = {};
    if (name.trim() !== list.name) body.name = name.trim();
    if (inclusion !== list.inclusion) body.inclusion = inclusion;
    update.mutate(body, {
      onSuccess: (next) => {
        setName(next.name);
        snackbar.show({ color: 'success', text: 'Filter list saved' });
      },
      onError: (error) => {
        const nameErrors = error instanceof ApiError ? error.body?.errors?.name : undefined;
        if (nameErrors?.length) setNameError(nameErrors.join(' '));
        else setFailure(errorText(error));
      },
    });
  };

  return (
    <Section title="Details">
      <Stack component="form" spacing={2} onSubmit={save} noValidate>
        <TextField
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError !== null}
          helperText={nameError}
          disabled={!canEdit || saving}
          slotProps={{ htmlInput: { maxLength: 255 } }}
        />
        {list.type === 'keyword' && (
          <TextField
            select
            label="Inclusion"
            value={inclusion ? 'include' : 'exclude'}
            onChange={(event) => setInclusion(event.target.value === 'include')}
            disabled={!isOwner || saving}
            helperText={
              isOwner
                ? 'Switching changes every saved search that uses the list.'
                : 'Only the list’s owner can switch between inclusion and exclusion.'
            }
          >
            <MenuItem value="include">Inclusion: posts must contain one of the keywords</MenuItem>
            <MenuItem value="exclude">Exclusion: posts must contain none of the keywords</MenuItem>
          </TextField>
        )}
        {failure && <Alert severity="error">{failure}</Alert>}
        {canEdit && (
          <Box>
            <Button type="submit" variant="contained" disabled={!changed || saving}>
              {saving ? 'Saving…' : 'Save changes'}
            </Button>
          </Box>
        )}
      </Stack>
    </Section>
  );
}

function EntriesSection({ list }: { list: FilterList }) {
  const entries = entriesOf(list);
  const canEdit = list.userPermissionLevel !== 'view';
  const isObjects = list.type === 'object_detection';
  const noun = list.type === 'author' ? 'author' : isObjects ? 'object' : 'keyword';
  const [draft, setDraft] = useState('');
  const [objects, setObjects] = useState<string[]>([]);
  const [find, setFind] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const change = useChangeFilterEntries(list);
  const showLimit = useLimitDialog();
  const busy = change.isPending;
  const fileInput = useRef<HTMLInputElement>(null);

  /** Makes the change, then says what the server left out (or summary does), or why it failed. */
  const run = (variables: FilterEntriesChange, done?: () => void, summary?: (reply: FilterListChange) => string) => {
    setNotice(null);
    setFailure(null);
    change.mutate(variables, {
      onSuccess: (reply) => {
        if ('stripped' in reply) setNotice(summary ? summary(reply) : (reply.message ?? null));
        done?.();
      },
      onError: (error) => {
        // Entries beyond the organization's cap: the Asset Limit dialog, as for a new list.
        const limit = assetLimitOf(error);
        if (limit) {
          showLimit(limit);
          return;
        }
        const fields = error instanceof ApiError ? error.body?.errors : undefined;
        const detail = fields ? Object.values(fields).flat().join(' ') : '';
        setFailure(detail || errorText(error));
      },
    });
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    const values = isObjects
      ? objects
      : draft
          .split(/[\n,]/)
          .map((v) => v.trim())
          .filter(Boolean);
    if (values.length === 0) {
      setFailure(`Type at least one ${noun} to add.`);
      return;
    }
    run({ add: values }, () => {
      setDraft('');
      setObjects([]);
    });
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setNotice(null);
    if (!file.name.toLowerCase().endsWith('.csv')) {
      setFailure('The file must be a CSV file (.csv).');
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setFailure('The file may not be larger than 2 MB.');
      return;
    }
    const text = await readText(file);
    const before = entries.length;
    run({ csv: text }, undefined, (reply) => {
      const summary = `${countOf(entriesOf(reply.data).length - before, noun)} added from ${file.name}.`;
      return reply.message ? `${summary} ${reply.message}` : summary;
    });
  };

  const needle = find.trim().toLowerCase();
  const matching = needle ? entries.filter((e) => e.value.toLowerCase().includes(needle)) : entries;
  const shown = matching.slice(0, SHOWN_ENTRIES);

  return (
    <Section title={`Entries (${entries.length.toLocaleString()})`}>
      {canEdit && (
        <Stack spacing={1.5} sx={{ mb: 2 }}>
          <Stack
            component="form"
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            onSubmit={(e) => void add(e)}
            noValidate
          >
            {isObjects ? (
              <ObjectPicker value={objects} onChange={setObjects} disabled={busy} />
            ) : (
              <TextField
                label={list.type === 'author' ? 'Add authors' : 'Add keywords'}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                helperText="Separate several with commas. Each needs at least 3 characters; duplicates are left out."
                disabled={busy}
                fullWidth
                size="small"
              />
            )}
            <Box>
              <Button type="submit" variant="contained" disabled={busy}>
                Add
              </Button>
            </Box>
          </Stack>
          <Box>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label="CSV file"
              onChange={(event) => void upload(event)}
            />
            <Button
              variant="outlined"
              startIcon={<UploadFileOutlined />}
              disabled={busy}
              onClick={() => fileInput.current?.click()}
            >
              Upload CSV
            </Button>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              A .csv file of up to 2 MB; every non-empty cell becomes {isObjects ? 'an object' : `a ${noun}`}.
              {isObjects && ' Objects must come from the supported list.'}
            </Typography>
          </Box>
          {notice && (
            <Alert severity="info" onClose={() => setNotice(null)}>
              {notice}
            </Alert>
          )}
          {failure && (
            <Alert severity="error" onClose={() => setFailure(null)}>
              {failure}
            </Alert>
          )}
        </Stack>
      )}
      {entries.length > SHOWN_ENTRIES && (
        <TextField
          label="Find an entry"
          size="small"
          value={find}
          onChange={(event) => setFind(event.target.value)}
          sx={{ mb: 1 }}
        />
      )}
      <List dense aria-label="Entries" sx={{ maxHeight: 420, overflow: 'auto' }}>
        {shown.map((entry) => (
          <ListItem
            key={entry.id}
            divider
            secondaryAction={
              canEdit && (
                <IconButton
                  edge="end"
                  aria-label={`Remove ${entry.value}`}
                  disabled={busy}
                  onClick={() => run({ remove: [entry.id] })}
                >
                  <DeleteOutlined fontSize="small" />
                </IconButton>
              )
            }
          >
            <ListItemText primary={entry.value} />
          </ListItem>
        ))}
      </List>
      {matching.length > shown.length && (
        <Typography variant="body2" color="text.secondary">
          Showing {shown.length} of {matching.length.toLocaleString()}; type in Find an entry to narrow them.
        </Typography>
      )}
      {needle && matching.length === 0 && <Typography color="text.secondary">No entry contains “{find}”.</Typography>}
    </Section>
  );
}

function DeleteSection({ list }: { list: FilterList }) {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const deletion = useDeleteFilterList();
  const [refusal, setRefusal] = useState<string | null>(null);

  const remove = () => {
    if (list.userPermissionLevel !== 'owner') {
      setRefusal(DELETE_OWNER_MESSAGE);
      return;
    }
    const used = list.searches.length;
    confirm({
      title: `Delete “${list.name}”?`,
      text:
        used > 0
          ? `It is removed from the ${countOf(used, 'saved search', 'saved searches')} that use it, which then collect without it. This cannot be undone.`
          : 'This cannot be undone.',
      icon: 'warning',
      acceptLabel: 'Delete',
      // mutateAsync: the page may show the list gone before the reply's callbacks would run.
      onAccept: () =>
        void deletion.mutateAsync(list.id).then(
          () => {
            snackbar.show({ color: 'success', text: 'Filter list deleted' });
            void navigate('..', { relative: 'path' });
          },
          (error: unknown) => setRefusal(errorText(error)),
        ),
    });
  };

  return (
    <Section title="Delete">
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        Deleting the list detaches it from every saved search that uses it.
      </Typography>
      {refusal && (
        <Alert severity="error" sx={{ mb: 1.5 }} onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      <Button color="error" variant="outlined" startIcon={<DeleteOutlined />} onClick={remove}>
        Delete filter list
      </Button>
    </Section>
  );
}
