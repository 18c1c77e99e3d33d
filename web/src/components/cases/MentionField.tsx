import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { OrganizationMember } from '../../api/settings';
import { handleOf, mentionAt } from '../../lib/mentions';

const MAX_SUGGESTIONS = 6;

/**
 * A comment box that suggests the organization's members after an @: arrows move through them,
 * Enter or Tab takes one, Escape closes the list.
 */
export function MentionField({
  value,
  onChange,
  members,
  label,
  error,
  helperText,
}: {
  value: string;
  onChange: (value: string) => void;
  members: OrganizationMember[];
  label: string;
  error?: boolean;
  helperText?: string;
}) {
  const input = useRef<HTMLTextAreaElement | null>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const mention = dismissed ? null : mentionAt(value, caret);
  const suggestions = mention
    ? members
        .filter((m) => [m.name, m.username, m.email].some((s) => s && s.toLowerCase().includes(mention.query)))
        .slice(0, MAX_SUGGESTIONS)
    : [];
  const open = suggestions.length > 0;

  const take = (member: OrganizationMember) => {
    if (!mention) return;
    const inserted = `@${handleOf(member)} `;
    const next = value.slice(0, mention.start) + inserted + value.slice(caret);
    onChange(next);
    const position = mention.start + inserted.length;
    setCaret(position);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(position, position));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      const chosen = suggestions[Math.min(active, suggestions.length - 1)];
      if (chosen) take(chosen);
    } else if (event.key === 'Escape') {
      setDismissed(true);
    }
  };

  return (
    <div>
      <TextField
        label={label}
        value={value}
        multiline
        minRows={2}
        fullWidth
        error={error}
        helperText={helperText ?? 'Type @ to mention a colleague; they get an e-mail and a notification.'}
        inputRef={input}
        onChange={(event) => {
          onChange(event.target.value);
          setCaret(event.target.selectionStart ?? event.target.value.length);
          setDismissed(false);
        }}
        onSelect={(event) => setCaret((event.target as HTMLTextAreaElement).selectionStart ?? 0)}
        onKeyDown={onKeyDown}
        slotProps={{
          htmlInput: {
            role: 'combobox',
            'aria-expanded': open,
            'aria-controls': open ? 'mention-suggestions' : undefined,
            'aria-autocomplete': 'list',
            'aria-activedescendant': open ? `mention-${suggestions[active]?.id}` : undefined,
          },
        }}
      />
      {open && (
        <Paper elevation={3} sx={{ mt: 0.5, maxWidth: 360 }}>
          <MenuList id="mention-suggestions" role="listbox" aria-label="Colleagues to mention" dense>
            {suggestions.map((m, i) => (
              <MenuItem
                key={m.id}
                id={`mention-${m.id}`}
                role="option"
                aria-selected={i === active}
                selected={i === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => take(m)}
              >
                {m.name || m.email} <span style={{ opacity: 0.7, marginLeft: 8 }}>@{handleOf(m)}</span>
              </MenuItem>
            ))}
          </MenuList>
        </Paper>
      )}
    </div>
  );
}
