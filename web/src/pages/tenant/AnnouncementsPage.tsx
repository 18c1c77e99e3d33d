import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { type Announcement, ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX } from '../../api/announcements';
import { fieldError } from '../../api/fieldError';
import { ApiError } from '../../api/transport';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import {
  useAnnouncementsQuery,
  useDeleteAnnouncement,
  usePublishAnnouncement,
} from '../../hooks/useAnnouncementQueries';
import { useConfirm } from '../../hooks/useConfirm';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';

/** Tenant portal: publish short announcements every user of the tenant sees in the top bar. */
export function AnnouncementsPage() {
  return (
    <Box sx={{ maxWidth: 900 }}>
      <PageHeader
        title="Announcements"
        subtitle="Short notes for everyone in your tenant. They appear under the announcements button in the top bar, marked unread until each person opens them."
      />
      <PublishForm />
      <Published />
    </Box>
  );
}

function PublishForm() {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const publish = usePublishAnnouncement();
  const snackbar = useSnackbar();
  const fieldErrors = publish.error instanceof ApiError ? publish.error.body?.errors : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate(
      { title, body },
      {
        onSuccess: () => {
          setTitle('');
          setBody('');
          snackbar.show({ color: 'success', text: 'Announcement published' });
        },
      },
    );
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="publish-heading" sx={{ mb: 3 }}>
      <CardContent>
        <Typography id="publish-heading" variant="h4" component="h2" sx={{ mb: 2 }}>
          New announcement
        </Typography>
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <TextField
            label="Title"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            required
            error={Boolean(fieldError(publish.error, 'title'))}
            helperText={fieldError(publish.error, 'title') ?? `${title.length}/${ANNOUNCEMENT_TITLE_MAX}`}
            slotProps={{ htmlInput: { maxLength: ANNOUNCEMENT_TITLE_MAX } }}
          />
          <TextField
            label="Message"
            value={body}
            onChange={(event) => setBody(event.target.value)}
            required
            multiline
            minRows={3}
            error={Boolean(fieldError(publish.error, 'body'))}
            helperText={fieldError(publish.error, 'body') ?? `${body.length}/${ANNOUNCEMENT_BODY_MAX}`}
            slotProps={{ htmlInput: { maxLength: ANNOUNCEMENT_BODY_MAX } }}
          />
          {publish.isError && !fieldErrors && (
            <Typography color="error" role="alert">
              {publish.error.message}
            </Typography>
          )}
          <Box>
            <Button
              type="submit"
              variant="contained"
              loading={publish.isPending}
              disabled={title.trim() === '' || body.trim() === ''}
            >
              Publish
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

function Published() {
  const announcements = useAnnouncementsQuery();
  if (announcements.isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading the announcements">
        {[0, 1].map((i) => (
          <Skeleton key={i} variant="rounded" height={72} />
        ))}
      </Stack>
    );
  }
  if (announcements.isError) {
    return <LoadError onRetry={() => void announcements.refetch()}>The announcements could not be loaded.</LoadError>;
  }
  const list = announcements.data.announcements;
  if (list.length === 0) {
    return (
      <EmptyState icon={CampaignOutlined} title="Nothing published">
        Write a title and a message above and choose Publish: everyone in your tenant sees it at once.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="published-heading">
      <Typography id="published-heading" variant="h4" component="h2" sx={{ mb: 1.5 }}>
        Published
      </Typography>
      <Stack spacing={1.5}>
        {list.map((a) => (
          <PublishedAnnouncement key={a.id} announcement={a} />
        ))}
      </Stack>
    </section>
  );
}

function PublishedAnnouncement({ announcement: a }: { announcement: Announcement }) {
  const confirm = useConfirm();
  const remove = useDeleteAnnouncement();
  const snackbar = useSnackbar();
  const askToDelete = () =>
    confirm({
      title: `Delete “${a.title}”?`,
      text: 'It disappears from everyone’s announcements. This cannot be undone.',
      icon: 'warning',
      acceptLabel: 'Delete',
      onAccept: () =>
        remove.mutate(a.id, {
          onSuccess: () => snackbar.show({ color: 'success', text: `“${a.title}” deleted` }),
          onError: (error) => snackbar.show({ color: 'error', text: error.message }),
        }),
    });
  return (
    <Card variant="outlined" component="article" aria-label={a.title}>
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>
            {a.title}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', my: 0.5 }}>
            {a.body}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {formatDateTime(new Date(a.created_at))}
            {a.author && ` · ${a.author}`}
          </Typography>
        </Box>
        <Tooltip title="Delete">
          <IconButton aria-label={`Delete “${a.title}”`} onClick={askToDelete}>
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </CardContent>
    </Card>
  );
}
