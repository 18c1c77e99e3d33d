import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/** "Analyze" on a post card (Beacon, Locate and the inbox alike): opens the post's analysis. */
export function AnalyzeButton({ onClick }: { onClick: () => void }) {
  return (
    <Tooltip title="Analyze: summary, entities and threat">
      <IconButton size="small" aria-label="Analyze" onClick={onClick}>
        <AutoAwesomeOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
