import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { filterListKeys, monitorKeys } from '../../api/keys';
import { type Group, type GroupMini, type MonitorSearch, type Provider } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { useCreateGroup, useSaveSearch } from '../../hooks/useMonitorActions';
import { useGroupsQuery, useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import {
  duplicateForm,
  type FieldProblem,
  formFromSearch,
  newForm,
  type SearchForm,
  serverProblems,
  toRequest,
  withAutoName,
  withProposedGroup,
} from '../../lib/searchForm';
import { assetLimitOf } from '../../lib/assetLimit';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { GroupForm } from '../GroupForm';
import { FilterStep } from './FilterStep';
import { MainStep } from './MainStep';
import { DEFAULT_BACKFILL_DAYS, PreviewStep } from './PreviewStep';
import type { BuilderRequest } from './SearchBuilderProvider';
import { SuccessStep } from './SuccessStep';

type Step = 'main' | 'filter' | 'group' | 'preview' | 'success' | 'warning';

const WIDTH_WITH_PROVIDERS = 1200;
const WIDTH = 800;
const GROUP_WIDTH = 650;

function initialForm(request: BuilderRequest, providers: Provider[], groups: GroupMini[]): SearchForm {
  switch (request.mode) {
    case 'create': {
      const form = { ...newForm(providers, request.groupId ?? null), ...request.prefill };
      // Data sources the builder does not offer (or none at all) keep its default selection.
      const offered = new Set(providers.map((p) => p.name));
      const chosen = (request.prefill?.providers ?? []).filter((p) => offered.has(p));
      // Prefilled terms name the search as typed ones would.
      return withProposedGroup(
        withAutoName(
          chosen.length > 0 ? { ...form, providers: chosen } : { ...form, providers: newForm(providers).providers },
        ),
        groups,
      );
    }
    case 'edit':
      return formFromSearch(request.search, providers);
    case 'duplicate':
      return withProposedGroup(duplicateForm(request.search, groups, providers), groups);
  }
}

/**
 * The search builder: the search itself, then side steps to create a filter list or a group, a
 * success step, and the US-persons warning after a location in US territory. Persistent while a
 * new search is being built and during the warning, so a stray click loses nothing.
 */
export function SearchBuilderDialog({
  request,
  open,
  onClose,
  onClosed,
}: {
  request: BuilderRequest;
  open: boolean;
  onClose: () => void;
  onClosed: () => void;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const providers = useProvidersQuery();
  const groups = useGroupsQuery();
  const [step, setStep] = useState<Step>('main');
  const [providersOpen, setProvidersOpen] = useState(false);

  const width = step === 'group' ? GROUP_WIDTH : step === 'main' && providersOpen ? WIDTH_WITH_PROVIDERS : WIDTH;
  const persistent = request.mode !== 'edit' || step === 'warning';
  const failed = providers.isError ? providers.error : groups.isError ? groups.error : null;

  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        // The warning needs an answer; a new search is not thrown away by a click beside it.
        if (step === 'warning' || (persistent && reason === 'backdropClick')) return;
        onClose();
      }}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby={titleId}
      slotProps={{
        paper: { sx: fullScreen ? undefined : { width, maxWidth: 'calc(100% - 32px)' } },
        transition: { onExited: onClosed },
      }}
    >
      {providers.data && groups.data ? (
        <Wizard
          request={request}
          providers={providers.data}
          groups={groups.data}
          step={step}
          setStep={setStep}
          providersOpen={providersOpen}
          setProvidersOpen={setProvidersOpen}
          titleId={titleId}
          onClose={onClose}
        />
      ) : (
        <>
          <DialogTitle id={titleId}>{request.mode === 'edit' ? 'Edit saved search' : 'New saved search'}</DialogTitle>
          <DialogContent>
            {failed ? (
              <DialogContentText color="error">{failed.message}</DialogContentText>
            ) : (
              <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
                <CircularProgress aria-label="Loading the search builder" />
              </Box>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function Wizard({
  request,
  providers,
  groups,
  step,
  setStep,
  providersOpen,
  setProvidersOpen,
  titleId,
  onClose,
}: {
  request: BuilderRequest;
  providers: Provider[];
  groups: Group[];
  step: Step;
  setStep: (step: Step) => void;
  providersOpen: boolean;
  setProvidersOpen: (open: boolean) => void;
  titleId: string;
  onClose: () => void;
}) {
  const profile = useProfile();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const save = useSaveSearch();
  const newGroup = useCreateGroup();
  const submitting = save.isPending || newGroup.isPending;
  const [form, setForm] = useState(() => initialForm(request, providers, groups));
  const [fromServer, setFromServer] = useState<FieldProblem[]>([]);
  const [saved, setSaved] = useState<MonitorSearch | null>(null);
  const [blacklisted, setBlacklisted] = useState<string[] | null>(null);
  const showLimit = useLimitDialog();
  const editing = request.mode === 'edit';

  // Only the preview offers to fill the inbox, showing what it would bring in.
  const [backfillDays, setBackfillDays] = useState(DEFAULT_BACKFILL_DAYS);

  // Listed at once, so the group select shows a new group before the list reloads.
  const listGroup = (group: Group) => {
    queryClient.setQueryData<Group[]>(monitorKeys.groupList, (groups) =>
      groups && !groups.some((g) => g.id === group.id) ? [...groups, group] : groups,
    );
    void queryClient.invalidateQueries({ queryKey: monitorKeys.groups });
    setForm((current) => ({ ...current, groupId: group.id, newGroupName: null }));
  };

  /**
   * Creates the group proposed for a first search (private, like the group form's default); its
   * failures show on the group field. Returns the group's id, or null when it could not be made.
   */
  const createProposedGroup = async (name: string): Promise<number | null> => {
    try {
      const group = await newGroup.mutateAsync({ name: name.trim(), privacy: 'private', sharedUsers: [] });
      listGroup(group);
      return group.id;
    } catch (failure) {
      const reached = assetLimitOf(failure);
      if (reached) {
        showLimit(reached);
        return null;
      }
      const reply = failure instanceof ApiError ? failure.body : undefined;
      const message =
        reply?.errors?.name?.[0] ??
        (failure instanceof Error ? failure.message : 'Something went wrong. Please try again.');
      setFromServer([{ field: 'group', title: 'Group', message }]);
      return null;
    }
  };

  const submit = async (backfill = 0) => {
    setFromServer([]);
    // A first search creates its group first; if the search then fails, the group stays chosen.
    const groupId =
      form.groupId === null && form.newGroupName !== null ? await createProposedGroup(form.newGroupName) : form.groupId;
    if (groupId === null) return;
    save.mutate(
      { id: form.id, body: { ...toRequest({ ...form, groupId }), backfillDays: backfill } },
      {
        onSuccess: (search) => {
          setSaved(search);
          setStep('success');
        },
        onError: (failure) => {
          const reply = failure instanceof ApiError ? failure.body : undefined;
          const reached = assetLimitOf(failure);
          if (reply?.blacklistedKeywords) {
            setBlacklisted(reply.message.split('\n').filter((line) => line.trim() !== ''));
          } else if (reached) {
            showLimit(reached);
          } else if (reply?.errors) {
            setFromServer(serverProblems(reply.errors));
          } else {
            snackbar.show({ color: 'error', text: failure.message });
          }
        },
      },
    );
  };

  if (step === 'success' && saved) {
    return <SuccessStep titleId={titleId} search={saved} edited={editing} onDone={onClose} />;
  }

  if (step === 'warning') {
    return (
      <>
        <DialogTitle id={titleId}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <WarningAmberOutlined color="warning" />
            <span>Sensitive personal information</span>
          </Stack>
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {form.location} is in United States territory. Searching it, you may be accessing sensitive personal
            information about US persons. Continue only if your organization’s policies allow it.
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button
            onClick={() => {
              setForm((current) => ({ ...current, location: '', locationBounds: '' }));
              setStep('main');
            }}
          >
            Cancel
          </Button>
          <Button variant="contained" onClick={() => setStep('main')}>
            Continue
          </Button>
        </DialogActions>
      </>
    );
  }

  if (step === 'group') {
    return (
      <>
        <DialogTitle id={titleId}>New group</DialogTitle>
        <DialogContent>
          <Link
            component="button"
            type="button"
            onClick={() => setStep('main')}
            sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}
          >
            <ArrowBackOutlined fontSize="small" /> Back to the search
          </Link>
          <GroupForm
            onCancel={() => setStep('main')}
            onCreated={(group) => {
              listGroup(group);
              snackbar.show({ color: 'success', text: 'Group created' });
              setStep('main');
            }}
          />
        </DialogContent>
      </>
    );
  }

  if (step === 'filter') {
    return (
      <FilterStep
        titleId={titleId}
        onBack={() => setStep('main')}
        onCreated={(id) => {
          void queryClient.invalidateQueries({ queryKey: filterListKeys.all });
          setForm((current) => ({ ...current, searchFilterIds: [...current.searchFilterIds, id] }));
          setStep('main');
        }}
      />
    );
  }

  if (step === 'preview') {
    return (
      <PreviewStep
        titleId={titleId}
        draft={toRequest(form)}
        monitorSearchId={form.id}
        providers={providers}
        editing={editing}
        submitting={submitting}
        backfillDays={backfillDays}
        onBackfillDays={setBackfillDays}
        onBack={() => setStep('main')}
        onSubmit={() => {
          // Problems the server finds are shown beside the fields.
          setStep('main');
          void submit(backfillDays);
        }}
      />
    );
  }

  return (
    <>
      <MainStep
        titleId={titleId}
        mode={request.mode}
        form={form}
        setForm={(update) => {
          setFromServer([]);
          setForm(update);
        }}
        serverProblems={fromServer}
        providers={providers}
        groups={groups}
        providersOpen={providersOpen}
        setProvidersOpen={setProvidersOpen}
        submitting={submitting}
        onSubmit={() => void submit()}
        onCancel={onClose}
        onCreateGroup={() => setStep('group')}
        onCreateFilter={() => setStep('filter')}
        onPreview={() => setStep('preview')}
        onUsTerritory={() => {
          if (profile.organization.is_uspi_compliant) setStep('warning');
        }}
      />
      <Dialog
        open={blacklisted !== null}
        aria-labelledby={`${titleId}-blacklist`}
        aria-describedby={`${titleId}-blacklist-text`}
      >
        <DialogTitle id={`${titleId}-blacklist`}>{blacklisted?.[0]}</DialogTitle>
        <DialogContent id={`${titleId}-blacklist-text`}>
          {blacklisted?.slice(1).map((line) => (
            <DialogContentText key={line} sx={{ mb: 1 }}>
              {line}
            </DialogContentText>
          ))}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={() => setBlacklisted(null)}>
            Edit search
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
