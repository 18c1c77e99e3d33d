import LinkOutlined from '@mui/icons-material/LinkOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { SocialAccount, SocialProvider } from '../../api/social';
import { useConfirm } from '../../hooks/useConfirm';
import { useDisconnectSocialAccount, useSocialAccountsQuery, useSocialProvidersQuery } from '../../hooks/useSocialQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';

/** How the network's sign-in ended, as the server's callback put it in the address. */
function useConnectionOutcome() {
  const [params, setParams] = useSearchParams();
  const snackbar = useSnackbar();
  const connected = params.get('social_connected');
  const failed = params.get('social_error');
  useEffect(() => {
    if (!connected && !failed) return;
    snackbar.show(connected ? { text: `Connected ${connected}`, color: 'success' } : { text: failed ?? '', color: 'error' });
    setParams(
      (current) => {
        current.delete('social_connected');
        current.delete('social_error');
        return current;
      },
      { replace: true },
    );
  }, [connected, failed, setParams, snackbar]);
}

/**
 * The user's accounts on other networks, connected through the OAuth 2 apps the operator set up.
 * Connecting leaves the app for the network's own sign-in and comes back here.
 */
export function SocialIntegrations() {
  useConnectionOutcome();
  const providers = useSocialProvidersQuery();
  const accounts = useSocialAccountsQuery();
  const disconnect = useDisconnectSocialAccount();
  const confirm = useConfirm();
  const snackbar = useSnackbar();

  if (providers.isPending || accounts.isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading social integrations">
        <Skeleton variant="rounded" height={36} />
      </Stack>
    );
  }
  if (providers.isError || accounts.isError) {
    return <Alert severity="error">{(providers.error ?? accounts.error)?.message}</Alert>;
  }
  // Accounts of a network the operator has since removed can still be disconnected.
  const networks: SocialProvider[] = [
    ...providers.data,
    ...accounts.data
      .map((a) => a.provider)
      .filter((p, i, all) => !providers.data.some((c) => c.name === p.name) && all.findIndex((q) => q.name === p.name) === i),
  ];
  if (networks.length === 0) {
    return (
      <Typography color="text.secondary">
        No social networks are set up on this server yet. Ask your administrator to register Sightline with the networks
        your team uses.
      </Typography>
    );
  }

  const askDisconnect = (account: SocialAccount) =>
    confirm({
      title: `Disconnect ${account.account_name || account.account_id}?`,
      text: `Sightline forgets this ${account.provider.display_name} account and its access. You can connect it again later.`,
      icon: 'warning',
      acceptLabel: 'Disconnect',
      onAccept: () =>
        disconnect.mutate(account.id, {
          onSuccess: () => snackbar.show({ text: 'Account disconnected', color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        }),
    });

  return (
    <List disablePadding aria-label="Social networks">
      {networks.map((network) => {
        const connected = accounts.data.filter((a) => a.provider.name === network.name);
        const configured = providers.data.some((p) => p.name === network.name);
        return (
          <ListItem key={network.name} divider sx={{ px: 0, flexWrap: 'wrap', gap: 1 }}>
            <ListItemText
              primary={network.display_name}
              secondary={
                connected.length === 0
                  ? 'Not connected'
                  : connected
                      .map((a) => `${a.account_name || a.account_id} (since ${formatDateTime(new Date(a.connected_at))})`)
                      .join(', ')
              }
            />
            <Stack direction="row" spacing={1}>
              {connected.map((a) => (
                <Button
                  key={a.id}
                  size="small"
                  color="error"
                  disabled={disconnect.isPending}
                  aria-label={`Disconnect ${network.display_name} account ${a.account_name || a.account_id}`}
                  onClick={() => askDisconnect(a)}
                >
                  Disconnect
                </Button>
              ))}
              {configured && (
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<LinkOutlined />}
                  href={network.connect_url}
                  aria-label={`Connect a ${network.display_name} account`}
                >
                  Connect
                </Button>
              )}
            </Stack>
          </ListItem>
        );
      })}
    </List>
  );
}
