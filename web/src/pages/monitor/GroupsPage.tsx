import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { GroupForm } from '../../components/GroupForm';
import { GroupRow } from '../../components/GroupRow';
import { PageHeader } from '../../components/PageHeader';
import { useGroupsQuery, useRefreshMonitor } from '../../hooks/useMonitorQueries';
import { useSnackbar } from '../../hooks/useSnackbar';

/** The user's search groups and those shared with them, favourites first. */
export function GroupsPage() {
  const groups = useGroupsQuery();
  const refresh = useRefreshMonitor();
  const snackbar = useSnackbar();
  const [creating, setCreating] = useState(false);
  const titleId = useId();
  const sorted = [...(groups.data ?? [])].sort(
    (a, b) =>
      Number(b.isFavourite) - Number(a.isFavourite) ||
      Number(b.isSavedSearch) - Number(a.isSavedSearch) ||
      a.name.localeCompare(b.name),
  );
  return (
    <>
      <PageHeader
        title="Search groups"
        subtitle="Groups organise saved searches and share them with your team."
        actions={
          <Button variant="contained" startIcon={<CreateNewFolderOutlined />} onClick={() => setCreating(true)}>
            New group
          </Button>
        }
      />
      {groups.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading groups">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} variant="rounded" height={64} />
          ))}
        </Stack>
      )}
      {groups.isError && <Alert severity="error">{groups.error.message}</Alert>}
      {groups.isSuccess && sorted.length === 0 && (
        <EmptyState icon={FolderOutlined} title="No search groups yet">
          Create a group, then add saved searches to it and share it with your team.
        </EmptyState>
      )}
      {sorted.length > 0 && (
        <Stack component="ul" spacing={1} aria-label="Search groups" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {sorted.map((group) => (
            <GroupRow key={group.id} group={group} />
          ))}
        </Stack>
      )}
      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        aria-labelledby={titleId}
        slotProps={{ paper: { sx: { width: 650, maxWidth: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id={titleId}>New group</DialogTitle>
        <DialogContent>
          <GroupForm
            onCancel={() => setCreating(false)}
            onCreated={() => {
              setCreating(false);
              snackbar.show({ color: 'success', text: 'Group created' });
              void refresh();
            }}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}
