import AddOutlined from '@mui/icons-material/AddOutlined';
import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type SetStateAction, useId, useMemo, useState } from 'react';
import type { Group, Provider } from '../../api/monitor';
import { useProfile, useServerTranslates } from '../../hooks/useProfileQuery';
import { useSettledValue } from '../../hooks/useSettledValue';
import { hasActiveAlerts } from '../../lib/alerts';
import { providersForLinks } from '../../lib/providerSelection';
import { MAX_NAME_LENGTH } from '../../lib/query';
import {
  beaconTestUrl,
  boardChipLabel,
  type FieldProblem,
  type FormField,
  formProblems,
  keywordProblems,
  locateTestUrl,
  type SearchForm,
  selectableGroups,
  summaryOf,
  withAutoName,
} from '../../lib/searchForm';
import { canOpen } from '../../lib/productAreas';
import { AlertsPanel } from '../alerts/AlertsPanel';
import { InfoPopover } from '../InfoPopover';
import { ProviderSelector } from '../ProviderSelector';
import { SharingAvatars } from '../SharingAvatars';
import { ExpandLanguagesDialog } from '../translate/ExpandLanguagesDialog';
import { KeywordTranslator } from '../translate/KeywordTranslator';
import { AdvancedOptions, SearchFiltersPanel } from './BuilderPanels';
import { DateRangeField } from './DateRangeField';
import { LocationField } from './LocationField';

/** How long typing must pause before the keyword rules speak up. */
export const KEYWORD_MESSAGE_DELAY_MS = 750;

function KeywordHelp() {
  const rows: [string, string][] = [
    ['protest bridge', 'both words (a space is AND)'],
    ['protest OR riot', 'either word; AND and OR in capitals'],
    ['"road block"', 'the exact phrase'],
    ['-spam', 'leave out posts with the word'],
    ['protest*', 'protest, protests, protesters…'],
    ['colo?r', 'one character: color, colour is not'],
    ['(a OR b) c', 'brackets group'],
  ];
  return (
    <InfoPopover
      label="How to combine keywords"
      maxWidth={420}
      trigger={(props) => (
        <Link
          component="button"
          type="button"
          variant="body2"
          {...props}
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          <HelpOutlineOutlined sx={{ fontSize: 16 }} /> How to combine keywords
        </Link>
      )}
    >
      <Box
        component="table"
        sx={{ borderCollapse: 'collapse', '& td': { py: 0.5, pr: 2, verticalAlign: 'top', fontSize: 14 } }}
      >
        <tbody>
          {rows.map(([example, meaning]) => (
            <tr key={example}>
              <td>
                <code>{example}</code>
              </td>
              <td>{meaning}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </InfoPopover>
  );
}

function problemText(problems: FieldProblem[], field: FormField): string | undefined {
  const messages = problems.filter((p) => p.field === field).map((p) => p.message);
  return messages.length > 0 ? messages.join(' ') : undefined;
}

/** The first step of the builder: the search itself. */
export function MainStep({
  titleId,
  mode,
  form,
  setForm,
  serverProblems,
  providers,
  groups,
  providersOpen,
  setProvidersOpen,
  submitting,
  onSubmit,
  onCancel,
  onCreateGroup,
  onCreateFilter,
  onPreview,
  onUsTerritory,
}: {
  titleId: string;
  mode: 'create' | 'edit' | 'duplicate';
  form: SearchForm;
  setForm: (update: SetStateAction<SearchForm>) => void;
  serverProblems: FieldProblem[];
  providers: Provider[];
  groups: Group[];
  providersOpen: boolean;
  setProvidersOpen: (open: boolean) => void;
  submitting: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  onCreateGroup: () => void;
  onCreateFilter: () => void;
  /** Runs the search over the stored posts before it is saved. */
  onPreview: () => void;
  onUsTerritory: () => void;
}) {
  const profile = useProfile();
  const flags = profile.organization.feature_flags;
  const shareSearches = flags.share_searches === true;
  const editing = mode === 'edit';
  const problemsId = useId();
  // Coming back from a side step, the data sources stay open if they were.
  const [panel, setPanel] = useState<string | false>(providersOpen ? 'providers' : false);
  const [locationFailure, setLocationFailure] = useState<string | undefined>();
  const translates = useServerTranslates();
  const [translating, setTranslating] = useState(false);
  const [expanding, setExpanding] = useState(false);
  const update = (change: (f: SearchForm) => SearchForm) => setForm((f) => change(f));
  const updateTerms = (change: Partial<SearchForm>) => setForm((f) => withAutoName({ ...f, ...change }));

  // The keyword rules speak once typing pauses; the submit button follows every keystroke.
  const settledKeywords = useSettledValue(form.keywords, KEYWORD_MESSAGE_DELAY_MS);
  const keywordMessage = useMemo(() => keywordProblems(settledKeywords).join(' '), [settledKeywords]);
  const summary = useMemo(() => summaryOf(settledKeywords), [settledKeywords]);
  const problems = formProblems(form, new Date());
  const allProblems = [...problems, ...serverProblems];
  const offered = selectableGroups(groups);
  const group = groups.find((g) => g.id === form.groupId);
  const linkProviders = providersForLinks(form.providers, providers, false);
  const groupLocked = editing && !shareSearches;
  const proposing = form.groupId === null && form.newGroupName !== null;
  // The proposed group's name is checked as it is typed; the server's word comes after a save.
  const groupError = problemText(serverProblems, 'group') ?? problemText(problems, 'group');

  const nameAndGroup = (
    <Stack spacing={1}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          label="Search name"
          required
          value={form.name}
          onChange={(event) => update((f) => ({ ...f, name: event.target.value, nameEdited: true }))}
          error={Boolean(problemText(serverProblems, 'name'))}
          helperText={problemText(serverProblems, 'name') ?? `${[...form.name].length}/${MAX_NAME_LENGTH}`}
          slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
        />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
          {proposing ? (
            // No group to save into yet: the first search brings its own, created on save.
            <TextField
              label="Name of the new group"
              required
              fullWidth
              value={form.newGroupName}
              onChange={(event) => update((f) => ({ ...f, newGroupName: event.target.value }))}
              error={Boolean(groupError)}
              helperText={groupError ?? 'Created, private to you, when you save the search.'}
              slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
            />
          ) : (
            <TextField
              select
              label="Group"
              required
              fullWidth
              value={form.groupId ?? ''}
              disabled={groupLocked}
              onChange={(event) => update((f) => ({ ...f, groupId: Number(event.target.value) }))}
              error={Boolean(problemText(serverProblems, 'group'))}
              helperText={
                problemText(serverProblems, 'group') ??
                (groupLocked
                  ? 'Move the search from its page to change its group.'
                  : offered.length === 0
                    ? 'Create a group first.'
                    : ' ')
              }
            >
              {/* A search's own group stays listed even when it could not be chosen anew. */}
              {(group && !offered.includes(group) ? [group, ...offered] : offered).map((g) => (
                <MenuItem key={g.id} value={g.id}>
                  {g.isSavedSearch ? 'Uncategorized' : g.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {/* The group step also sets privacy and sharing, for the proposed group too. */}
          {!groupLocked && (
            <Button onClick={onCreateGroup} startIcon={<AddOutlined />} sx={{ mt: 1, flexShrink: 0 }}>
              New group
            </Button>
          )}
        </Stack>
      </Box>
      {shareSearches && group && group.sharedUsers.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            This group is shared with
          </Typography>
          <SharingAvatars entries={group.sharedUsers} currentUserId={profile.id} />
        </Stack>
      )}
    </Stack>
  );

  const panelProps = (id: string) => ({
    expanded: panel === id,
    onChange: (_event: unknown, expanded: boolean) => {
      setPanel(expanded ? id : false);
      setProvidersOpen(expanded && id === 'providers');
    },
    disableGutters: true,
    variant: 'outlined' as const,
    sx: { '&:before': { display: 'none' }, borderRadius: 1 },
  });

  return (
    <>
      <DialogTitle id={titleId}>{editing ? 'Edit saved search' : 'New saved search'}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          {shareSearches && nameAndGroup}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Box sx={{ flex: 1 }}>
              <LocationField
                value={form.location}
                onChange={(location) => {
                  setLocationFailure(undefined);
                  updateTerms({ location });
                }}
                onResolved={(result, failure) => {
                  update((f) => ({ ...f, locationBounds: result?.bounds ?? '' }));
                  setLocationFailure(failure);
                  if (result?.is_address_in_us_territory) onUsTerritory();
                }}
                bounds={form.locationBounds}
                error={locationFailure ?? problemText(serverProblems, 'query')}
              />
            </Box>
            <TextField
              label="Author"
              placeholder="Name or screen name; separate several with commas"
              value={form.author}
              onChange={(event) => updateTerms({ author: event.target.value })}
              sx={{ flex: 1 }}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <PersonOutlined fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Stack>
          <Stack spacing={0.75}>
            <TextField
              label="Keywords"
              multiline
              minRows={2}
              value={form.keywords}
              onChange={(event) => updateTerms({ keywords: event.target.value })}
              error={Boolean(keywordMessage) || Boolean(problemText(serverProblems, 'keywords'))}
              helperText={
                keywordMessage ||
                problemText(serverProblems, 'keywords') ||
                'Combine keywords with AND and OR in capitals; quote phrases.'
              }
            />
            <Stack
              direction="row"
              sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}
            >
              <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ overflowWrap: 'anywhere' }}>
                {summary && (
                  <>
                    <strong>Matches posts with:</strong> {summary}
                  </>
                )}
              </Typography>
              <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
                {translates && (
                  <Link
                    component="button"
                    type="button"
                    variant="body2"
                    aria-expanded={translating}
                    onClick={() => setTranslating((open) => !open)}
                    sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                  >
                    <TranslateOutlined sx={{ fontSize: 16 }} /> Translate keywords
                  </Link>
                )}
                {translates && (
                  <Link
                    component="button"
                    type="button"
                    variant="body2"
                    aria-haspopup="dialog"
                    onClick={() => setExpanding(true)}
                    sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                  >
                    <TranslateOutlined sx={{ fontSize: 16 }} /> Expand to languages
                  </Link>
                )}
                <KeywordHelp />
              </Stack>
            </Stack>
            {translates && translating && (
              <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
                <KeywordTranslator query={form.keywords} onChange={(keywords) => updateTerms({ keywords })} />
              </Box>
            )}
            {translates && expanding && (
              <ExpandLanguagesDialog
                query={form.keywords}
                onApply={(keywords) => updateTerms({ keywords })}
                onClose={() => setExpanding(false)}
              />
            )}
          </Stack>
          <DateRangeField
            value={{ startDate: form.startDate, endDate: form.endDate }}
            onChange={(range) => update((f) => ({ ...f, ...range }))}
            error={problemText(problems, 'dateRange') ?? problemText(serverProblems, 'dateRange')}
          />
          {!shareSearches && nameAndGroup}
          {!editing && (canOpen('locate', profile) || canOpen('beacon', profile)) && (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2" color="text.secondary">
                Try it first:
              </Typography>
              {canOpen('locate', profile) && (
                <Link
                  href={locateTestUrl(form, linkProviders)}
                  target="_blank"
                  rel="noopener"
                  variant="body2"
                  sx={{ display: 'inline-flex', gap: 0.5 }}
                >
                  Test in Locate <OpenInNewOutlined sx={{ fontSize: 16 }} />
                </Link>
              )}
              {canOpen('beacon', profile) && (
                <Link
                  href={beaconTestUrl(form, linkProviders)}
                  target="_blank"
                  rel="noopener"
                  variant="body2"
                  sx={{ display: 'inline-flex', gap: 0.5 }}
                >
                  Test in Beacon <OpenInNewOutlined sx={{ fontSize: 16 }} />
                </Link>
              )}
            </Stack>
          )}
          <Box>
            <Accordion {...panelProps('providers')}>
              <AccordionSummary expandIcon={<ExpandMoreOutlined />}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 600 }}>Data sources</Typography>
                  <Chip
                    size="small"
                    color={form.providers.length === 0 ? 'error' : 'default'}
                    label={`${form.providers.length} of ${providers.filter((p) => p.enabled).length} selected`}
                  />
                </Stack>
              </AccordionSummary>
              <AccordionDetails>
                <ProviderSelector
                  providers={providers}
                  selection={form.providers}
                  onChange={(next) => update((f) => ({ ...f, providers: next }))}
                />
              </AccordionDetails>
            </Accordion>
            <Accordion {...panelProps('advanced')}>
              <AccordionSummary expandIcon={<ExpandMoreOutlined />}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 600 }}>Advanced options</Typography>
                  {form.imagesOnly && <Chip size="small" label="Images only" />}
                  {form.videosOnly && <Chip size="small" label="Videos only" />}
                  {form.boards.length > 0 && <Chip size="small" label={boardChipLabel(form.boards)} />}
                </Stack>
              </AccordionSummary>
              <AccordionDetails>
                <AdvancedOptions form={form} update={update} />
              </AccordionDetails>
            </Accordion>
            <Accordion {...panelProps('filters')}>
              <AccordionSummary expandIcon={<ExpandMoreOutlined />}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 600 }}>Search filters</Typography>
                  {form.searchFilterIds.length > 0 && (
                    <Chip size="small" label={`${form.searchFilterIds.length} selected`} />
                  )}
                </Stack>
              </AccordionSummary>
              <AccordionDetails>
                <SearchFiltersPanel form={form} update={update} group={group} onCreate={onCreateFilter} />
              </AccordionDetails>
            </Accordion>
            <Accordion {...panelProps('alerts')}>
              <AccordionSummary expandIcon={<ExpandMoreOutlined />}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 600 }}>Alerts</Typography>
                  <Chip size="small" label={hasActiveAlerts(form.alerts) ? 'On' : 'Off'} />
                </Stack>
              </AccordionSummary>
              <AccordionDetails>
                <AlertsPanel alerts={form.alerts} onChange={(alerts) => update((f) => ({ ...f, alerts }))} />
              </AccordionDetails>
            </Accordion>
          </Box>
          {serverProblems.length > 0 && (
            <Alert severity="error">
              {serverProblems.map((p) => (
                <div key={`${p.title}-${p.message}`}>{p.message}</div>
              ))}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
        {allProblems.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {allProblems.length === 1 ? '1 thing to fix' : `${allProblems.length} things to fix`}
          </Typography>
        )}
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="outlined" onClick={onPreview} disabled={allProblems.length > 0 || submitting}>
          Preview
        </Button>
        <Tooltip
          title={
            allProblems.length > 0 ? (
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {allProblems.map((p) => (
                  <li key={`${p.field}-${p.message}`}>
                    <strong>{p.title}:</strong> {p.message}
                  </li>
                ))}
              </Box>
            ) : (
              ''
            )
          }
        >
          {/* A disabled button receives no pointer or focus events; the wrapper keeps the tooltip reachable. */}
          <span
            tabIndex={allProblems.length > 0 ? 0 : undefined}
            aria-describedby={allProblems.length > 0 ? problemsId : undefined}
          >
            <Button variant="contained" onClick={onSubmit} disabled={allProblems.length > 0 || submitting}>
              {editing ? 'Save' : 'Create'}
            </Button>
          </span>
        </Tooltip>
        <Box id={problemsId} sx={{ display: 'none' }}>
          {allProblems.map((p) => `${p.title}: ${p.message}`).join(' ')}
        </Box>
      </DialogActions>
    </>
  );
}
