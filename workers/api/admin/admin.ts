import {
  ADMINS_ONLY,
  AdminUserParam,
  AUDIT_PAGE_SIZE,
  AuditLogQuery,
  ChangeRoleBody,
  GrantCreditsBody,
  UserSearchQuery,
} from "../../../contracts/admin/admin-users.ts";
import { adminOnly, requireUser } from "../../auth/middleware.ts";
import { actorOf } from "../../services/admin/admin-audit.ts";
import { auditLogPage, blockUser, changeRole, grantCredits, searchUsers, unblockUser, userDetail } from "../../services/admin/admin-users.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * The admin console's users section and audit log (issue 20, docs/decisions/051-admin-console.md). Every
 * call is for admins only (the role column, checked on the server: 403 for anyone else, 401 signed out),
 * and every change writes its audit entry in the same batch.
 */
export const adminApi = router();

const admins = adminOnly(ADMINS_ONLY);

adminApi.get("/admin/users", requireUser, admins, valid("query", UserSearchQuery), async (c) => {
  const { q, page } = c.req.valid("query");
  return c.json(await searchUsers(c.env, q ?? "", page ?? 1));
});

adminApi.get("/admin/users/:userId", requireUser, admins, valid("param", AdminUserParam), async (c) =>
  c.json(await userDetail(c.env, c.req.valid("param").userId)),
);

adminApi.post("/admin/users/:userId/credits", requireUser, admins, valid("param", AdminUserParam), valid("json", GrantCreditsBody), async (c) =>
  c.json(await grantCredits(c.env, actorOf(c.var.auth.user), c.req.valid("param").userId, c.req.valid("json"))),
);

adminApi.post("/admin/users/:userId/role", requireUser, admins, valid("param", AdminUserParam), valid("json", ChangeRoleBody), async (c) =>
  c.json(await changeRole(c.env, actorOf(c.var.auth.user), c.req.valid("param").userId, c.req.valid("json").role)),
);

adminApi.post("/admin/users/:userId/block", requireUser, admins, valid("param", AdminUserParam), async (c) =>
  c.json(await blockUser(c.env, actorOf(c.var.auth.user), c.req.valid("param").userId)),
);

adminApi.post("/admin/users/:userId/unblock", requireUser, admins, valid("param", AdminUserParam), async (c) =>
  c.json(await unblockUser(c.env, actorOf(c.var.auth.user), c.req.valid("param").userId)),
);

adminApi.get("/admin/auditLog", requireUser, admins, valid("query", AuditLogQuery), async (c) =>
  c.json(await auditLogPage(c.env, c.req.valid("query"), AUDIT_PAGE_SIZE)),
);
