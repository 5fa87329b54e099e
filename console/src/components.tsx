import type { ComponentChildren } from 'preact';
import type { Loaded } from './use-load';

export function ErrorNote({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Loading({ when }: { when: boolean }) {
  return when ? (
    <p class="muted" role="status">
      Loading…
    </p>
  ) : null;
}

/** A titled section of a page. */
export function Panel({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

export interface Column<T> {
  title: string;
  cell: (row: T) => ComponentChildren;
  numeric?: boolean;
}

export interface TableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: string;
}

/** A table with a caption (read by screen readers), or a sentence when it is empty. */
export function Table<T>({ caption, columns, rows, rowKey, empty }: TableProps<T>) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.numeric ? 'num' : undefined} key={c.title}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td class={c.numeric ? 'num' : undefined} key={c.title}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list the page loaded: its error, "Loading…" until the first answer, then its table. */
export function LoadedTable<T>({ loaded, ...table }: { loaded: Loaded<T[]> } & Omit<TableProps<T>, 'rows'>) {
  return (
    <>
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading && !loaded.data} />
      <Table {...table} rows={loaded.data ?? []} />
    </>
  );
}

/** A state as a coloured word: green when `on`, red otherwise. */
export function Badge({ on, children }: { on: boolean; children: ComponentChildren }) {
  return <span class={on ? 'badge on' : 'badge off'}>{children}</span>;
}

/** A button for what cannot be undone: it asks `question` first, and acts only when the person agrees. */
export function ConfirmButton({
  label,
  name,
  question,
  onConfirm,
}: {
  label: string;
  /** What it acts on, for its accessible name ("Delete <name>"). */
  name: string;
  question: string;
  onConfirm: () => void;
}) {
  return (
    <button type="button" class="danger" aria-label={`${label} ${name}`} onClick={() => confirm(question) && onConfirm()}>
      {label}
    </button>
  );
}

/** Enables or disables a row's thing ("Disable <name>", "Enable <name>"). */
export function ToggleButton({ disabled, name, onToggle }: { disabled: boolean; name: string; onToggle: (disabled: boolean) => void }) {
  const label = disabled ? 'Enable' : 'Disable';
  return (
    <button type="button" class="secondary" aria-label={`${label} ${name}`} onClick={() => onToggle(!disabled)}>
      {label}
    </button>
  );
}

/** Buttons to the page before and after the one shown, with what lies between (the rows shown) if given. */
export function Pager({
  of,
  onPrevious,
  onNext,
  labels = ['Previous', 'Next'],
  children,
}: {
  /** What the pages hold, for the pager's name ("Pages of keys"). */
  of: string;
  /** Undefined: there is no page before (or after). */
  onPrevious: (() => void) | undefined;
  onNext: (() => void) | undefined;
  labels?: [string, string];
  children?: ComponentChildren;
}) {
  return (
    <nav class="pager" aria-label={`Pages of ${of}`}>
      <button type="button" class="secondary" disabled={!onPrevious} onClick={onPrevious}>
        {labels[0]}
      </button>
      {children}
      <button type="button" class="secondary" disabled={!onNext} onClick={onNext}>
        {labels[1]}
      </button>
    </nav>
  );
}
