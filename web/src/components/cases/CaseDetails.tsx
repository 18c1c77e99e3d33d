import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { CASE_STATUS_LABELS, CASE_STATUSES, type Case, type CaseChange } from '../../api/cases';
import { fieldError, formError } from '../../api/fieldError';
import type { Privacy } from '../../api/contracts.gen';
import type { OrganizationMember } from '../../api/settings';
import { useUpdateCase } from '../../hooks/useCaseQueries';

const privacyLabels: Record<Privacy, string> = {
  private: 'Only me and the people below',
  readonly: 'Everyone in the organization can view',
  shared: 'Everyone in the organization can edit',
};

const label = (m: Pick<OrganizationMember, 'name' | 'email'>) => m.name || m.email;

/** A case's status, assignees, tags and sharing; each change is saved at once. */
export function CaseDetails({ value, members }: { value: Case; members: OrganizationMember[] }) {
  const update = useUpdateCase(value.id);
  const save = (change: CaseChange) => update.mutate(change);
  const byId = new Map(members.map((m) => [m.id, m]));
  const pick = (ids: number[]) => ids.flatMap((id) => byId.get(id) ?? []);
  const shared = (role: 'full_access' | 'read_only') =>
    pick(value.sharedUsers.filter((s) => s.role === role).map((s) => s.id));
  const setShares = (editors: OrganizationMember[], viewers: OrganizationMember[]) =>
    save({
      sharedUsers: [
        ...editors.map((m) => ({ userId: m.id, role: 'full_access' as const })),
        ...viewers.filter((m) => !editors.includes(m)).map((m) => ({ userId: m.id, role: 'read_only' as const })),
      ],
    });
  const problem = formError(update.error, ['status', 'assignees', 'tags', 'privacy', 'sharedUsers']);
  const others = members.filter((m) => m.id !== value.owner.id);

  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Status"
        size="small"
        value={value.status}
        disabled={!value.canEdit}
        onChange={(e) => save({ status: e.target.value as Case['status'] })}
      >
        {CASE_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {CASE_STATUS_LABELS[s]}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        multiple
        size="small"
        options={members}
        getOptionLabel={label}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={pick(value.assignees.map((a) => a.id))}
        disabled={!value.canEdit}
        onChange={(_, chosen) => save({ assignees: chosen.map((m) => m.id) })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Assignees"
            error={fieldError(update.error, 'assignees') !== undefined}
            helperText={fieldError(update.error, 'assignees')}
          />
        )}
      />
      <Autocomplete
        multiple
        freeSolo
        size="small"
        options={[] as string[]}
        value={value.tags}
        disabled={!value.canEdit}
        onChange={(_, tags) => save({ tags })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Tags"
            error={fieldError(update.error, 'tags') !== undefined}
            helperText={fieldError(update.error, 'tags') ?? (value.canEdit ? 'Type a tag and press Enter.' : undefined)}
          />
        )}
      />
      <TextField
        select
        label="Who sees it"
        size="small"
        value={value.privacy}
        disabled={!value.canManageSharing}
        onChange={(e) => save({ privacy: e.target.value as Privacy })}
        helperText={
          value.canManageSharing ? undefined : 'Only the owner, or someone it is shared with for editing, changes this.'
        }
      >
        {(Object.keys(privacyLabels) as Privacy[]).map((p) => (
          <MenuItem key={p} value={p}>
            {privacyLabels[p]}
          </MenuItem>
        ))}
      </TextField>
      {(['full_access', 'read_only'] as const).map((role) => (
        <Autocomplete
          key={role}
          multiple
          size="small"
          options={others}
          getOptionLabel={label}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={shared(role)}
          disabled={!value.canManageSharing}
          onChange={(_, chosen) =>
            role === 'full_access' ? setShares(chosen, shared('read_only')) : setShares(shared('full_access'), chosen)
          }
          renderInput={(params) => (
            <TextField {...params} label={role === 'full_access' ? 'Shared with, can edit' : 'Shared with, can view'} />
          )}
        />
      ))}
      {problem && <Alert severity="error">{problem}</Alert>}
    </Stack>
  );
}
