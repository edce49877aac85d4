import { useState, type FormEvent } from "react";
import type { AdminUserSearch } from "../../../contracts/admin/admin-users.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { searchUsers } from "./admin-api.ts";
import { UserDetailDialog } from "./user-detail-dialog.tsx";
import { StackTable } from "../shell/stack-table.tsx";

/**
 * The admin page's "Users" section (issue 20, decision 051): find an account by e-mail, handle or name, a
 * page at a time, and open it to see its plan, credits, connections and activity, grant credits, change its
 * role, block or unblock it.
 */
export function UsersSection() {
  const [text, setText] = useState("");
  const [search, setSearch] = useState({ q: "", page: 1 });
  const [openUser, setOpenUser] = useState<string | null>(null);
  const query = useApiQuery<AdminUserSearch>(["admin", "users", search.q, search.page], () => searchUsers(search.q, search.page));
  const cache = useApiCache();
  const result = query.data ?? null;
  const failed = readFailure(query, "We could not load the accounts.");

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch({ q: text.trim(), page: 1 });
  }

  return (
    <section className="card admin-section" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <form role="search" className="admin-users__search" onSubmit={submit}>
        <div className="field">
          <label className="field__label" htmlFor="admin-user-search">
            Search users
          </label>
          <p className="field__hint" id="admin-user-search-hint">
            By e-mail, handle or name. Leave empty to list the newest accounts.
          </p>
          <input
            id="admin-user-search"
            className="field__input"
            type="search"
            value={text}
            maxLength={200}
            aria-describedby="admin-user-search-hint"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>

      {failed || !result ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading accounts…" />
      ) : result.users.length === 0 ? (
        <p className="muted" role="status">
          {search.q ? `No account matches “${search.q}”.` : "There are no accounts yet."}
        </p>
      ) : (
        <>
          <p className="visually-hidden" role="status">
            {search.q ? `Accounts matching ${search.q}, page ${result.page}` : `Newest accounts, page ${result.page}`}
          </p>
          <StackTable label="Accounts" columns={["Account", "Handle", "Plan", "Role", "Status"]} action="Action">
            {result.users.map((user) => (
              <tr key={user.id}>
                <th scope="row">
                  {user.name || user.email}
                  <span className="muted small admin-section__who">{user.email}</span>
                </th>
                <td data-label="Handle">{user.handle}</td>
                <td data-label="Plan">
                  {user.planName} ({user.planStatus})
                </td>
                <td data-label="Role">{user.role === "admin" ? "Admin" : "User"}</td>
                <td data-label="Status">{user.blocked ? <strong className="admin-badge admin-badge--blocked">Blocked</strong> : "Active"}</td>
                <td>
                  <button type="button" className="button button--ghost" onClick={() => setOpenUser(user.id)} aria-label={`Manage ${user.email}`}>
                    Manage
                  </button>
                </td>
              </tr>
            ))}
          </StackTable>
          <nav className="admin-pager" aria-label="Account pages">
            <button type="button" className="button button--ghost" disabled={result.page <= 1} onClick={() => setSearch({ ...search, page: search.page - 1 })}>
              Previous page
            </button>
            <span className="muted">Page {result.page}</span>
            <button type="button" className="button button--ghost" disabled={!result.hasMore} onClick={() => setSearch({ ...search, page: search.page + 1 })}>
              Next page
            </button>
          </nav>
        </>
      )}
      {openUser && <UserDetailDialog userId={openUser} onClose={() => setOpenUser(null)} onChanged={() => void cache.refresh(["admin", "users"])} />}
    </section>
  );
}
