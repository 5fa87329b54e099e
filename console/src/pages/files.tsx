import { useState } from 'preact/hooks';
import { api, query, type Workspace } from '../api';
import { ConfirmButton, ErrorNote, LoadedTable, Pager, Panel } from '../components';
import { formatBytes, formatTime } from '../format';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';

/** The reference's file object, as far as the page shows it. */
interface StoredFile {
  id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  created_at: string;
}

const FILES_PAGE = 100;

/**
 * The chosen workspace's files, newest first, a page at a time: each downloaded (the gateway sends it as an attachment,
 * never shown in its origin) or deleted. Files are uploaded through the API.
 */
export function Files({ workspace }: { workspace: Workspace }) {
  // The cursors of the pages before the one shown (the first page has none): Previous goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const loaded = useLoad(
    () =>
      api<{ data: StoredFile[]; has_more: boolean; cursor: string | null }>(
        'GET',
        `/files${query({ workspace_id: workspace.id, limit: FILES_PAGE, order: 'desc', cursor })}`,
      ),
    [workspace.id, cursor],
  );
  const files = { ...loaded, data: loaded.data?.data };
  const { act, error } = useAct(loaded.reload);
  const next = loaded.data?.has_more ? loaded.data.cursor : null;
  const scope = query({ workspace_id: workspace.id });
  return (
    <Panel title="Files">
      <ErrorNote message={error} />
      <LoadedTable
        loaded={files}
        caption={`Files of workspace ${workspace.name}, newest first`}
        rowKey={(f) => f.id}
        empty="No files: they are uploaded through the API (POST /api/v1/files)."
        columns={[
          { title: 'Name', cell: (f) => <span data-testid="file-name">{f.filename}</span> },
          { title: 'Type', cell: (f) => <code>{f.mime_type}</code> },
          { title: 'Size', cell: (f) => formatBytes(f.size_bytes), numeric: true },
          { title: 'Created', cell: (f) => formatTime(f.created_at) },
          { title: 'Id', cell: (f) => <code>{f.id}</code> },
          {
            title: 'Actions',
            cell: (f) => (
              <div class="actions">
                <a href={`/api/v1/files/${encodeURIComponent(f.id)}/content${scope}`} download={f.filename}>
                  Download<span class="visually-hidden"> {f.filename}</span>
                </a>
                <ConfirmButton
                  label="Delete"
                  name={f.filename}
                  question={`Delete file “${f.filename}”? Requests that name it will be refused.`}
                  onConfirm={() => act(() => api('DELETE', `/files/${encodeURIComponent(f.id)}${scope}`))}
                />
              </div>
            ),
          },
        ]}
      />
      {(cursors.length > 0 || next) && (
        <Pager
          of="files"
          onPrevious={cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined}
          onNext={next ? () => setCursors([...cursors, next]) : undefined}
        />
      )}
    </Panel>
  );
}
