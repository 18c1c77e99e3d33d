import Star from '@mui/icons-material/Star';
import StarBorderOutlined from '@mui/icons-material/StarBorderOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/** A star that marks a group or search as a favourite. */
export function FavouriteButton({
  name,
  favourite,
  onToggle,
}: {
  name: string;
  favourite: boolean;
  onToggle: () => void;
}) {
  const label = favourite ? `Remove ${name} from favourites` : `Add ${name} to favourites`;
  return (
    <Tooltip title={favourite ? 'Favourite' : 'Add to favourites'}>
      <IconButton aria-label={label} aria-pressed={favourite} onClick={onToggle} size="small">
        {favourite ? <Star sx={{ color: 'warning.main' }} /> : <StarBorderOutlined />}
      </IconButton>
    </Tooltip>
  );
}
