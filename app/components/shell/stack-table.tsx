import type { ReactNode } from "react";

/**
 * A table that stacks each row into a card on a phone (the shared `affiliate-table--stack` styles): the
 * affiliate dashboard's sales and the admin page's accounts, payouts and redeem codes. `action` names a last
 * column of row buttons for screen readers only. The rows (`<tr>`, a `<th scope="row">` first) are the children.
 */
export function StackTable({
  label,
  columns,
  action,
  className,
  children,
}: {
  label: string;
  columns: string[];
  action?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className={`affiliate-table affiliate-table--stack${className ? ` ${className}` : ""}`} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {action ? (
              <th scope="col">
                <span className="visually-hidden">{action}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
