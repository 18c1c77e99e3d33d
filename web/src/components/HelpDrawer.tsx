import MailOutlineOutlined from '@mui/icons-material/MailOutlineOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useProfile } from '../hooks/useProfileQuery';
import { HELP_CENTRE_URL, LEARNING_RESOURCES_URL, SUPPORT_REPLY_PROMISE, supportAddress } from '../lib/support';
import { SideDrawer } from './SideDrawer';
import { SupportForm } from './SupportForm';

const helpLinks = [
  {
    label: 'Learning resources',
    description: 'Guides to searching and monitoring',
    href: LEARNING_RESOURCES_URL,
    icon: MenuBookOutlined,
  },
  {
    label: 'Help centre',
    description: 'Known questions and how to report a problem',
    href: HELP_CENTRE_URL,
    icon: SupportAgentOutlined,
  },
];

export function HelpDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const profile = useProfile();
  const supportEmail = supportAddress(profile);
  return (
    <SideDrawer open={open} onClose={onClose} title="Help and support" closeLabel="Close help" width={380}>
      <Box sx={{ p: 3 }}>
        <Typography color="text.secondary">
          Learn how to write searches, keep them running as saved searches and read what they find. If you are stuck,
          our team is happy to help.
        </Typography>
      </Box>
      {/* Links, not list items: a list of bare links fails axe's list rule. */}
      <List component="div" sx={{ px: 1.5 }}>
        {helpLinks.map(({ label, description, href, icon: Icon }) => (
          <ListItemButton key={href} component="a" href={href} target="_blank" rel="noopener">
            <ListItemIcon>
              <Icon />
            </ListItemIcon>
            <ListItemText primary={label} secondary={description} />
            <OpenInNewOutlined fontSize="small" color="action" />
          </ListItemButton>
        ))}
      </List>
      <Divider sx={{ my: 2 }} />
      <Box sx={{ px: 3 }}>
        <Typography variant="h4" component="h3" gutterBottom>
          Contact us
        </Typography>
        {supportEmail ? (
          <>
            <Typography color="text.secondary">
              Write to{' '}
              <Link href={`mailto:${supportEmail}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                <MailOutlineOutlined fontSize="inherit" />
                {supportEmail}
              </Link>
              . {SUPPORT_REPLY_PROMISE}
            </Typography>
            {profile.emailDelivery ? (
              <SupportForm supportEmail={supportEmail} />
            ) : (
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                This server does not send e-mail, so it cannot pass on a message from here; write from your own mailbox.
              </Typography>
            )}
          </>
        ) : (
          <Typography color="text.secondary">
            This server has no support address other than your own; its operator sets one with --support-email. Report a
            problem in the{' '}
            <Link href={HELP_CENTRE_URL} target="_blank" rel="noopener">
              help centre
            </Link>
            .
          </Typography>
        )}
      </Box>
    </SideDrawer>
  );
}
