import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { MonitorSearchSummary } from '../../api/monitor';
import { useNotificationSettingsQuery } from '../../hooks/useNotificationQueries';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { hasActiveAlerts } from '../../lib/alerts';
import { formatCount } from '../../lib/countFormat';
import { SUGGESTED_TOPICS } from '../../lib/getStarted';
import { SearchAlertsDrawer } from '../alerts/SearchAlertsDrawer';

function Step({ done, title, children }: { done: boolean; title: string; children: ReactNode }) {
  const Icon = done ? CheckCircleOutlined : RadioButtonUncheckedOutlined;
  return (
    <Stack component="li" direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
      <Icon color={done ? 'success' : 'disabled'} sx={{ mt: 0.25 }} titleAccess={done ? 'Done' : 'To do'} />
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
        {children}
      </Box>
    </Stack>
  );
}

/** The last step, done once an alert of the search is on. */
function AlertStep({ search, onOpen }: { search: MonitorSearchSummary; onOpen: () => void }) {
  const settings = useNotificationSettingsQuery(search.id);
  return (
    <Step done={hasActiveAlerts(settings.data?.settings ?? [])} title="Set an alert">
      <Typography variant="body2" color="text.secondary">
        Choose how you hear about new matches.
      </Typography>
      <Button size="small" onClick={onOpen} sx={{ mt: 0.5, ml: -0.5 }}>
        Set an alert
      </Button>
    </Step>
  );
}

/**
 * The first minutes of a new analyst: a saved search from a suggested topic, its matches in the
 * inbox, then an alert on it. search is the newest saved search, once there is one, with the
 * address of its inbox; matches counts the results so far; onStart is called as the user takes
 * the first step, so the card stays for the next two.
 */
export function GetStartedCard({
  search,
  inboxLink,
  matches,
  onStart,
  onDismiss,
}: {
  search: MonitorSearchSummary | undefined;
  inboxLink: string;
  matches: number | undefined;
  onStart: () => void;
  onDismiss: () => void;
}) {
  const builder = useSearchBuilder();
  const [alertsOpen, setAlertsOpen] = useState(false);
  const create = (keywords?: string) => {
    onStart();
    builder.create(keywords ? { prefill: { keywords } } : undefined);
  };
  const muted = (text: string) => (
    <Typography variant="body2" color="text.secondary">
      {text}
    </Typography>
  );

  return (
    <Paper component="section" aria-label="Get started" variant="outlined" sx={{ p: 3, mb: 3, position: 'relative' }}>
      <IconButton aria-label="Dismiss the guide" onClick={onDismiss} sx={{ position: 'absolute', top: 8, right: 8 }}>
        <CloseOutlined />
      </IconButton>
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
        Get started
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Three steps to watch a topic.
      </Typography>
      <Stack component="ol" spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        <Step done={search !== undefined} title="Create a saved search">
          {search ? (
            muted(`“${search.value}” is saved and runs on new posts.`)
          ) : (
            <>
              {muted('Pick a topic to watch, or write your own keywords.')}
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
                {SUGGESTED_TOPICS.map((topic) => (
                  <Chip key={topic.keywords} label={topic.label} onClick={() => create(topic.keywords)} clickable />
                ))}
                <Button size="small" onClick={() => create()}>
                  Your own keywords
                </Button>
              </Stack>
            </>
          )}
        </Step>
        <Step done={search !== undefined && (matches ?? 0) > 0} title="See matches arrive">
          {search ? (
            <>
              {muted(
                (matches ?? 0) > 0
                  ? `${formatCount(matches ?? 0)} matches so far.`
                  : 'New posts that match the search appear in its inbox as they come in.',
              )}
              <Link component={RouterLink} to={inboxLink} variant="body2" sx={{ display: 'inline-block', mt: 0.5 }}>
                Open the inbox
              </Link>
            </>
          ) : (
            muted('Once the search is saved, its matches collect in the inbox.')
          )}
        </Step>
        {search ? (
          <AlertStep search={search} onOpen={() => setAlertsOpen(true)} />
        ) : (
          <Step done={false} title="Set an alert">
            {muted('Then choose how you hear about new matches.')}
          </Step>
        )}
      </Stack>
      {alertsOpen && search && (
        <SearchAlertsDrawer searchId={search.id} searchName={search.value} onClose={() => setAlertsOpen(false)} />
      )}
    </Paper>
  );
}
