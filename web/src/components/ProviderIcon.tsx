import BugReportOutlined from '@mui/icons-material/BugReportOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import ContentPasteOutlined from '@mui/icons-material/ContentPasteOutlined';
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import Facebook from '@mui/icons-material/Facebook';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Instagram from '@mui/icons-material/Instagram';
import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import Reddit from '@mui/icons-material/Reddit';
import RssFeedOutlined from '@mui/icons-material/RssFeedOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import Telegram from '@mui/icons-material/Telegram';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import VpnLockOutlined from '@mui/icons-material/VpnLockOutlined';
import WaterDropOutlined from '@mui/icons-material/WaterDropOutlined';
import X from '@mui/icons-material/X';
import YouTube from '@mui/icons-material/YouTube';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';

// The catalogue names an icon per provider; brands without a Material glyph get their initial.
const glyphs: Record<string, SvgIconComponent> = {
  x: X,
  facebook: Facebook,
  instagram: Instagram,
  reddit: Reddit,
  telegram: Telegram,
  youtube: YouTube,
  newspaper: NewspaperOutlined,
  rss: RssFeedOutlined,
  public: PublicOutlined,
  forum: ForumOutlined,
  image: ImageOutlined,
  imageboard: ImageOutlined,
  chat: ChatOutlined,
  tor: HubOutlined,
  'vpn-lock': VpnLockOutlined,
  'dark-web': DarkModeOutlined,
  storefront: StorefrontOutlined,
  terminal: TerminalOutlined,
  'content-paste': ContentPasteOutlined,
  'water-drop': WaterDropOutlined,
  'bug-report': BugReportOutlined,
};

/** A provider's glyph on its brand colour; decorative, the provider's name is always nearby. */
export function ProviderIcon({
  icon,
  color,
  displayName,
  size = 22,
}: {
  icon: string;
  color: string;
  displayName: string;
  size?: number;
}) {
  const Glyph = glyphs[icon];
  return (
    <Box
      aria-hidden
      component="span"
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: '50%',
        display: 'inline-grid',
        placeItems: 'center',
        bgcolor: color,
        color: '#fff',
        fontSize: size * 0.5,
        fontWeight: 700,
        lineHeight: 1,
      }}
    >
      {Glyph ? <Glyph sx={{ fontSize: size * 0.62 }} /> : (displayName[0] ?? '?').toUpperCase()}
    </Box>
  );
}
