import { REDEEM_CODES_ADMINS_ONLY, RedeemBatchIdParam, RedeemCodeParam, RedeemCsvQuery } from "../../../contracts/admin/admin-redeem-codes.ts";
import { CreateRedeemCodesBody } from "../../../contracts/billing/plans-api.ts";
import { adminOnly, requireUser } from "../../auth/middleware.ts";
import { disableRedeemBatch, disableRedeemCode, listRedeemBatches, redeemBatchCsv, redeemBatchDetail } from "../../services/admin/redeem-code-batches.ts";
import { createRedeemCodes } from "../../services/billing/redeem-codes.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * The admin console's redeem codes (issue 20, decision 053): create a batch,
 * list batches with their use, one batch's codes, its CSV, disable a batch or
 * a code. Admins only, checked on the server for every call; every change is
 * audited.
 */
export const adminRedeemCodesApi = router();
const admins = adminOnly(REDEEM_CODES_ADMINS_ONLY);

adminRedeemCodesApi.post("/admin/redeemCodes", requireUser, admins, valid("json", CreateRedeemCodesBody), async (c) =>
  c.json(await createRedeemCodes(c.env, c.var.auth.user, c.req.valid("json")), 201),
);

adminRedeemCodesApi.get("/admin/redeemCodeBatches", requireUser, admins, async (c) => c.json({ batches: await listRedeemBatches(c.env) }));

adminRedeemCodesApi.get("/admin/redeemCodeBatches/:batchId", requireUser, admins, valid("param", RedeemBatchIdParam), async (c) =>
  c.json({ batch: await redeemBatchDetail(c.env, c.req.valid("param").batchId) }),
);

adminRedeemCodesApi.get(
  "/admin/redeemCodeBatches/:batchId/csv",
  requireUser,
  admins,
  valid("param", RedeemBatchIdParam),
  valid("query", RedeemCsvQuery),
  async (c) => {
    const { fileName, csv } = await redeemBatchCsv(c.env, c.req.valid("param").batchId, c.req.valid("query").timeZone);
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    });
  },
);

adminRedeemCodesApi.post("/admin/redeemCodeBatches/:batchId/disable", requireUser, admins, valid("param", RedeemBatchIdParam), async (c) =>
  c.json({ batch: await disableRedeemBatch(c.env, c.var.auth.user, c.req.valid("param").batchId) }),
);

adminRedeemCodesApi.post("/admin/redeemCodes/:code/disable", requireUser, admins, valid("param", RedeemCodeParam), async (c) =>
  c.json({ code: await disableRedeemCode(c.env, c.var.auth.user, c.req.valid("param").code) }),
);
