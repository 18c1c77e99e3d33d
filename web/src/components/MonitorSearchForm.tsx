import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useAppNavigate } from '../hooks/useAppNavigate';
import { readsSearchText } from '../lib/navigation';

export const SEARCH_TEXT_PARAM = 'searchText';

/** The top bar's keyword search over Monitor matches. */
export function MonitorSearchForm() {
  const { pathname } = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const appNavigate = useAppNavigate();
  // The text is read from the address once, when the page loads.
  const [text, setText] = useState(() => searchParams.get(SEARCH_TEXT_PARAM) ?? '');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (query === '') {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (readsSearchText(pathname)) {
      setSearchParams((params) => {
        params.set(SEARCH_TEXT_PARAM, query);
        return params;
      });
      return;
    }
    appNavigate(`/monitor/matches/grid?${new URLSearchParams({ [SEARCH_TEXT_PARAM]: query }).toString()}`);
  };

  return (
    <Box component="form" role="search" onSubmit={submit} noValidate sx={{ width: '100%', maxWidth: 520 }}>
      <TextField
        fullWidth
        size="small"
        type="search"
        placeholder="Search matches"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (invalid) setInvalid(false);
        }}
        error={invalid}
        helperText={invalid ? 'Search cannot be empty' : undefined}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { 'aria-label': 'Search matches' },
          formHelperText: { sx: { position: 'absolute', top: '100%', m: 0, mt: 0.25 } },
        }}
      />
    </Box>
  );
}
