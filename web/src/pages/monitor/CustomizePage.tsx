import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DragIndicatorOutlined from '@mui/icons-material/DragIndicatorOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId, useState } from 'react';
import type { DashboardLayout, WidgetId } from '../../api/dashboard';
import { LeaveDialog } from '../../components/LeaveDialog';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { useDashboardLayoutQuery, useSaveDashboardLayout } from '../../hooks/useDashboardQuery';
import { useLeaveGuard } from '../../hooks/useLeaveGuard';
import { useSnackbar } from '../../hooks/useSnackbar';
import { MAX_ROW_WIDGETS, MAX_ROWS, WIDGET_IDS, WIDGET_TITLES } from '../../lib/dashboardWidgets';

/** A row being edited, with a key that survives reordering. */
interface DraftRow {
  key: string;
  widgets: WidgetId[];
}

let rowKeys = 0;
const draftOf = (layout: DashboardLayout): DraftRow[] =>
  layout.rows.map((row) => ({ key: `row-${++rowKeys}`, widgets: [...row.widgets] }));
const layoutOf = (rows: DraftRow[]): DashboardLayout => ({
  // A row left empty is dropped rather than refused.
  rows: rows.filter((row) => row.widgets.length > 0).map((row) => ({ widgets: row.widgets })),
});

/** customize: the dashboard's rows and widgets, added, removed and rearranged, then saved or discarded. */
export function CustomizePage() {
  const layout = useDashboardLayoutQuery();
  if (layout.isPending) {
    return (
      <>
        <Header />
        <Stack spacing={2} role="status" aria-label="Loading the layout">
          <Skeleton variant="rounded" height={96} />
          <Skeleton variant="rounded" height={96} />
        </Stack>
      </>
    );
  }
  if (layout.isError) {
    return (
      <>
        <Header />
        <LoadError onRetry={() => void layout.refetch()} retryLabel="Try Again">
          {layout.error.message}
        </LoadError>
      </>
    );
  }
  return <LayoutEditor saved={layout.data} />;
}

function Header({ actions }: { actions?: ReactNode }) {
  return (
    <PageHeader
      title="Customize the dashboard"
      subtitle="Add, remove and drag widgets and rows, then save. The layout is yours alone."
      actions={actions}
    />
  );
}

function LayoutEditor({ saved }: { saved: DashboardLayout }) {
  const [rows, setRows] = useState(() => draftOf(saved));
  const save = useSaveDashboardLayout();
  const snackbar = useSnackbar();
  const dirty = JSON.stringify(layoutOf(rows)) !== JSON.stringify(saved);
  const blocker = useLeaveGuard(dirty);
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const used = new Set(rows.flatMap((row) => row.widgets));
  const unused = WIDGET_IDS.filter((id) => !used.has(id));

  const saveLayout = (then?: () => void) =>
    save.mutate(layoutOf(rows), {
      onSuccess: (layout) => {
        setRows(draftOf(layout));
        snackbar.show({ color: 'success', text: 'Dashboard layout saved' });
        then?.();
      },
      onError: (error) => snackbar.show({ color: 'error', text: error.message }),
    });
  const discard = () => setRows(draftOf(saved));
  const change = (key: string, widgets: WidgetId[]) =>
    setRows((all) => all.map((row) => (row.key === key ? { ...row, widgets } : row)));

  const moveRow = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setRows((all) => {
      const from = all.findIndex((row) => row.key === active.id);
      const to = all.findIndex((row) => row.key === over.id);
      return from < 0 || to < 0 ? all : arrayMove(all, from, to);
    });
  };

  return (
    <>
      <Header
        actions={
          <Stack direction="row" spacing={1}>
            <Button onClick={discard} disabled={!dirty || save.isPending}>
              Discard changes
            </Button>
            <Button variant="contained" onClick={() => saveLayout()} disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save layout'}
            </Button>
          </Stack>
        }
      />
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={moveRow}>
        <SortableContext items={rows.map((row) => row.key)} strategy={verticalListSortingStrategy}>
          <Stack spacing={2} component="ol" aria-label="Dashboard rows" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {rows.map((row, index) => (
              <RowEditor
                key={row.key}
                row={row}
                number={index + 1}
                unused={unused}
                onChange={(widgets) => change(row.key, widgets)}
                onRemove={() => setRows((all) => all.filter((r) => r.key !== row.key))}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Button
        startIcon={<AddOutlined />}
        sx={{ mt: 2 }}
        disabled={rows.length >= MAX_ROWS || unused.length === 0}
        onClick={() => setRows((all) => [...all, { key: `row-${++rowKeys}`, widgets: [unused[0] as WidgetId] }])}
      >
        Add a row
      </Button>
      {unused.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Every widget is on the dashboard. Remove one from a row to place it elsewhere.
        </Typography>
      )}
      <LeaveDialog
        open={blocker.state === 'blocked'}
        title="Save the layout before leaving?"
        text="Your changes to the dashboard are not saved yet."
        saving={save.isPending}
        onStay={() => blocker.reset?.()}
        onDiscard={() => blocker.proceed?.()}
        onSave={() => saveLayout(() => blocker.proceed?.())}
      />
    </>
  );
}

function RowEditor({
  row,
  number,
  unused,
  onChange,
  onRemove,
}: {
  row: DraftRow;
  number: number;
  unused: WidgetId[];
  onChange: (widgets: WidgetId[]) => void;
  onRemove: () => void;
}) {
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({ id: row.key });
  const labelId = useId();
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const moveWidget = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = row.widgets.indexOf(active.id as WidgetId);
    const to = row.widgets.indexOf(over.id as WidgetId);
    if (from >= 0 && to >= 0) onChange(arrayMove(row.widgets, from, to));
  };
  return (
    <Paper
      component="li"
      variant="outlined"
      ref={setNodeRef}
      aria-labelledby={labelId}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      sx={{ p: 1.5, opacity: isDragging ? 0.6 : 1 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <IconButton size="small" aria-label={`Drag row ${number}`} {...attributes} {...listeners}>
          <DragIndicatorOutlined fontSize="small" />
        </IconButton>
        <Typography id={labelId} variant="subtitle2" sx={{ flex: 1 }}>
          Row {number}
        </Typography>
        <TextField
          select
          size="small"
          label="Add a widget"
          value=""
          disabled={unused.length === 0 || row.widgets.length >= MAX_ROW_WIDGETS}
          onChange={(event) => onChange([...row.widgets, event.target.value as WidgetId])}
          sx={{ minWidth: 220 }}
        >
          {unused.map((id) => (
            <MenuItem key={id} value={id}>
              {WIDGET_TITLES[id]}
            </MenuItem>
          ))}
        </TextField>
        <IconButton aria-label={`Remove row ${number}`} onClick={onRemove}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Stack>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={moveWidget}>
        <SortableContext items={row.widgets} strategy={horizontalListSortingStrategy}>
          <Box
            component="ul"
            aria-label={`Widgets of row ${number}`}
            sx={{
              display: 'grid',
              gap: 1,
              gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.max(1, row.widgets.length)}, minmax(0, 1fr))` },
              listStyle: 'none',
              m: 0,
              p: 0,
            }}
          >
            {row.widgets.map((id) => (
              <WidgetTile key={id} id={id} onRemove={() => onChange(row.widgets.filter((w) => w !== id))} />
            ))}
          </Box>
        </SortableContext>
      </DndContext>
      {row.widgets.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          This row is empty: add a widget, or it is left out when you save.
        </Typography>
      )}
    </Paper>
  );
}

function WidgetTile({ id, onRemove }: { id: WidgetId; onRemove: () => void }) {
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({ id });
  return (
    <Box
      component="li"
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        minHeight: 64,
        px: 1,
        borderRadius: 1.5,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'action.hover',
        opacity: isDragging ? 0.6 : 1,
      }}
    >
      <IconButton size="small" aria-label={`Drag ${WIDGET_TITLES[id]}`} {...attributes} {...listeners}>
        <DragIndicatorOutlined fontSize="small" />
      </IconButton>
      <Typography variant="body2" sx={{ flex: 1, fontWeight: 600 }}>
        {WIDGET_TITLES[id]}
      </Typography>
      <IconButton size="small" aria-label={`Remove ${WIDGET_TITLES[id]}`} onClick={onRemove}>
        <CloseOutlined fontSize="small" />
      </IconButton>
    </Box>
  );
}
