import GavelOutlined from '@mui/icons-material/GavelOutlined';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { Post } from '../../api/monitor';
import { useProfile } from '../../hooks/useProfileQuery';

/**
 * The spec's US-persons marker: a post made in, or naming a place of, US territory (the server's
 * `uspi`), marked for organizations that are US-persons-information compliant; others see
 * nothing, as the tenant's "US-persons compliance" switch says.
 */
export function UsPersonsMarker({ post }: { post: Post }) {
  const profile = useProfile();
  if (!post.uspi || !profile.organization.is_uspi_compliant) return null;
  return (
    <Tooltip title="This post was made in, or names a place of, the United States or its territories: it may hold information about US persons. Handle it as your organization’s policy says.">
      <Chip size="small" variant="outlined" color="warning" icon={<GavelOutlined />} label="US persons" tabIndex={0} />
    </Tooltip>
  );
}
