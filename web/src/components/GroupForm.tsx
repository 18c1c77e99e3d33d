import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../api/fieldError';
import { type Group, type Privacy } from '../api/monitor';
import { type OrganizationMember } from '../api/settings';
import { useCreateGroup } from '../hooks/useMonitorActions';
import { useOrganizationQuery } from '../hooks/useOrganizationQuery';
import { useProfile } from '../hooks/useProfileQuery';
import { assetLimitOf } from '../lib/assetLimit';
import { useLimitDialog } from '../hooks/useFailureReport';
import { MAX_NAME_LENGTH } from '../lib/query';
import { DEFAULT_INVITE_ROLE } from '../lib/sharing';
import { PrivacySelector } from './PrivacySelector';

const NAME_REQUIRED = 'Group Name is required';

/**
 * Creates a search group: a name, its privacy and, with the share-searches flag, the people it is
 * shared with (read only at first; roles change later in the sharing dialog).
 */
export function GroupForm({ onCreated, onCancel }: { onCreated: (group: Group) => void; onCancel: () => void }) {
  const profile = useProfile();
  const shareWithIndividuals = profile.organization.feature_flags.share_searches === true;
  const members = useOrganizationQuery();
  const [name, setName] = useState('');
  const [privacy, setPrivacy] = useState<Privacy>('private');
  const [people, setPeople] = useState<OrganizationMember[]>([]);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateGroup();
  const showLimit = useLimitDialog();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError(NAME_REQUIRED);
      return;
    }
    setError(null);
    const sharedUsers = people.map((p) => ({ username: p.email || p.username, role: DEFAULT_INVITE_ROLE }));
    create.mutate(
      { name: trimmed, privacy, sharedUsers },
      {
        onSuccess: onCreated,
        onError: (failure) => {
          const reached = assetLimitOf(failure);
          const nameFailure = fieldError(failure, 'name');
          if (reached) showLimit(reached);
          else if (nameFailure) setNameError(nameFailure);
          else setError(failure.message);
        },
      },
    );
  };

  return (
    <Stack component="form" spacing={2.5} onSubmit={submit} noValidate>
      <fieldset disabled={create.isPending} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack spacing={2.5}>
          <TextField
            label="Group name"
            required
            autoFocus
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(null);
            }}
            error={nameError !== null}
            helperText={nameError ?? `${name.length}/${MAX_NAME_LENGTH}`}
            slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
          />
          <PrivacySelector value={privacy} onChange={setPrivacy} />
          {shareWithIndividuals && (
            <Autocomplete
              multiple
              options={(members.data?.users ?? []).filter((m) => m.id !== profile.id)}
              value={people}
              onChange={(_event, value) => setPeople(value)}
              getOptionLabel={(m) => (m.name ? `${m.name} (${m.email})` : m.email)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Share with people"
                  helperText="They can view the group; change roles later."
                />
              )}
            />
          )}
        </Stack>
      </fieldset>
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          Create group
        </Button>
      </Stack>
    </Stack>
  );
}
