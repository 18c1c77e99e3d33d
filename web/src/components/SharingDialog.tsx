import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { Person, Privacy, ShareRole, SharingEntry } from '../api/monitor';
import type { OrganizationMember } from '../api/settings';
import { useOrganizationQuery } from '../hooks/useOrganizationQuery';
import { useProfile } from '../hooks/useProfileQuery';
import {
  DEFAULT_INVITE_ROLE,
  grantsEditAccess,
  initials,
  personLabel,
  restrictsSelf,
  ROLE_LABELS,
  sortSharing,
} from '../lib/sharing';
import { PrivacySelector } from './PrivacySelector';

export interface SharingSave {
  privacy?: Privacy;
  sharedUsers: { username: string; role: ShareRole }[];
}

const REMOVE = 'remove';

/**
 * Who can see and change a group or saved search: the owner (fixed), people shared with directly
 * (editable by those who manage sharing) and people who have access through the group (not
 * editable here). For groups the organization-wide privacy is chosen here too.
 */
export function SharingDialog({
  open,
  onClose,
  itemName,
  owner,
  entries,
  privacy,
  canManageSharing,
  shareWithIndividuals,
  saving,
  onSave,
  onRemoveOwnAccess,
}: {
  open: boolean;
  onClose: () => void;
  itemName: string;
  owner: Person;
  entries: SharingEntry[];
  /** A group's privacy; searches have none. */
  privacy?: Privacy;
  canManageSharing: boolean;
  /** The share-searches flag: without it only the privacy can be chosen. */
  shareWithIndividuals: boolean;
  /** Whether onSave's change is under way. */
  saving: boolean;
  /** Resolves once the change is saved; rejects with the failure, shown here. */
  onSave: (change: SharingSave) => Promise<unknown>;
  /** Leaves the item, for someone who may not manage its sharing. */
  onRemoveOwnAccess: () => void;
}) {
  const profile = useProfile();
  const titleId = useId();
  const members = useOrganizationQuery();
  const [direct, setDirect] = useState(() => entries.filter((e) => !e.fromGroup));
  const [nextPrivacy, setNextPrivacy] = useState(privacy);
  const [invitee, setInvitee] = useState<OrganizationMember | null>(null);
  const [inviteRole, setInviteRole] = useState<ShareRole>(DEFAULT_INVITE_ROLE);
  const [error, setError] = useState<string | null>(null);

  const inherited = entries.filter((e) => e.fromGroup);
  const listed = sortSharing([...direct, ...inherited]);
  const candidates = (members.data?.users ?? []).filter((m) => m.id !== owner.id && !direct.some((e) => e.id === m.id));
  const change = { before: entries, after: direct, privacyBefore: privacy, privacyAfter: nextPrivacy };

  const addInvitee = () => {
    if (!invitee) return;
    setDirect((current) => [...current, { ...invitee, role: inviteRole, fromGroup: false }]);
    setInvitee(null);
    setInviteRole(DEFAULT_INVITE_ROLE);
  };

  const save = () => {
    setError(null);
    onSave({
      privacy: nextPrivacy,
      sharedUsers: direct.map((e) => ({ username: e.email || e.username, role: e.role })),
    }).then(onClose, (failure: unknown) =>
      setError(failure instanceof Error ? failure.message : 'Something went wrong. Please try again.'),
    );
  };

  /** Leaving asks first, in its own dialog; this one closes. */
  const leave = () => {
    onRemoveOwnAccess();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: 620, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>Share “{itemName}”</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5}>
          {privacy !== undefined && (
            <PrivacySelector value={nextPrivacy ?? privacy} onChange={setNextPrivacy} disabled={!canManageSharing} />
          )}
          {shareWithIndividuals && canManageSharing && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <Autocomplete
                sx={{ flex: 1 }}
                options={candidates}
                value={invitee}
                loading={members.isPending}
                onChange={(_event, value) => setInvitee(value)}
                getOptionLabel={(m) => (m.name ? `${m.name} (${m.email})` : m.email)}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                renderInput={(params) => (
                  <TextField {...params} label="Add people from your organization" size="small" />
                )}
              />
              <TextField
                select
                size="small"
                label="Role"
                value={inviteRole}
                onChange={(event) => setInviteRole(event.target.value as ShareRole)}
                sx={{ minWidth: 130 }}
              >
                <MenuItem value="full_access">{ROLE_LABELS.full_access}</MenuItem>
                <MenuItem value="read_only">{ROLE_LABELS.read_only}</MenuItem>
              </TextField>
              <Button variant="outlined" startIcon={<PersonAddAlt1Outlined />} onClick={addInvitee} disabled={!invitee}>
                Add
              </Button>
            </Stack>
          )}
          <List dense aria-label="People with access" disablePadding>
            <ListItem divider>
              <ListItemAvatar>
                <Avatar sx={{ bgcolor: 'primary.dark' }}>{initials({ name: '', ...owner })}</Avatar>
              </ListItemAvatar>
              <ListItemText primary={personLabel(owner, profile.id)} secondary="Owner" />
            </ListItem>
            {listed.map((entry) => {
              const label = personLabel(entry, profile.id);
              const isMe = entry.id === profile.id;
              const editable = !entry.fromGroup && (canManageSharing || isMe);
              return (
                <ListItem
                  key={`${entry.id}-${entry.fromGroup}`}
                  divider
                  secondaryAction={
                    editable ? (
                      <TextField
                        select
                        size="small"
                        value={entry.role}
                        slotProps={{ htmlInput: { 'aria-label': `Access for ${label}` } }}
                        onChange={(event) => {
                          const value = event.target.value;
                          if (value === REMOVE) {
                            if (isMe && !canManageSharing) leave();
                            else setDirect((current) => current.filter((e) => e.id !== entry.id));
                            return;
                          }
                          setDirect((current) =>
                            current.map((e) => (e.id === entry.id ? { ...e, role: value as ShareRole } : e)),
                          );
                        }}
                        sx={{ minWidth: 130 }}
                      >
                        {canManageSharing && <MenuItem value="full_access">{ROLE_LABELS.full_access}</MenuItem>}
                        <MenuItem value="read_only">{ROLE_LABELS.read_only}</MenuItem>
                        <MenuItem value={REMOVE}>Remove</MenuItem>
                      </TextField>
                    ) : (
                      <Typography variant="body2" color="text.secondary">
                        {ROLE_LABELS[entry.role]}
                      </Typography>
                    )
                  }
                >
                  <ListItemAvatar>
                    <Avatar sx={{ bgcolor: entry.role === 'full_access' ? 'primary.dark' : 'primary.light' }}>
                      {initials(entry)}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={label}
                    secondary={entry.fromGroup ? 'Has access through the group' : entry.name || undefined}
                  />
                </ListItem>
              );
            })}
          </List>
          {canManageSharing && grantsEditAccess(change) && (
            <Alert severity="warning">People with edit access can change, share and delete “{itemName}”.</Alert>
          )}
          {restrictsSelf(change, profile.id) && (
            <Alert severity="warning">Removing or lowering your own access may permanently restrict you.</Alert>
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        {canManageSharing && (
          <Button variant="contained" onClick={save} disabled={saving}>
            Save
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
