import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useSearchParams } from 'react-router';
import { SEARCH_TEXT_PARAM } from './MonitorSearchForm';

/** Shows the top bar's search text on the screens that filter by it, and lets the user clear it. */
export function SearchTextFilter() {
  const [searchParams, setSearchParams] = useSearchParams();
  const text = searchParams.get(SEARCH_TEXT_PARAM);
  if (!text) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 3 }}>
      <Chip icon={<SearchOutlined />} label={text} color="primary" variant="outlined" />
      <Button
        size="small"
        onClick={() =>
          setSearchParams((params) => {
            params.delete(SEARCH_TEXT_PARAM);
            return params;
          })
        }
      >
        Clear search
      </Button>
    </Stack>
  );
}
