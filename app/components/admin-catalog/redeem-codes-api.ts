import type { RedeemBatchDetail, RedeemBatchSummary, RedeemCodeRow } from "../../../contracts/admin/admin-redeem-codes.ts";
import { ApiError, apiFetch, apiJson } from "../../lib/api-client.ts";
import { saveFile } from "../../lib/generator/download.ts";

/** The admin's redeem-code calls (issue 20, decision 053); the server checks the admin role on each. */
export interface NewBatch {
  planId: string;
  count: number;
  months: number | null;
  expiresAt: number | null;
  note: string;
}

export const createBatch = (batch: NewBatch) => apiJson<{ batchId: string; codes: string[] }>("/api/admin/redeemCodes", { json: batch });
export const listBatches = () => apiJson<{ batches: RedeemBatchSummary[] }>("/api/admin/redeemCodeBatches");
export const getBatch = (batchId: string) => apiJson<{ batch: RedeemBatchDetail }>(`/api/admin/redeemCodeBatches/${encodeURIComponent(batchId)}`);
export const disableBatch = (batchId: string) =>
  apiJson<{ batch: RedeemBatchSummary }>(`/api/admin/redeemCodeBatches/${encodeURIComponent(batchId)}/disable`, { json: {} });
export const disableCode = (code: string) => apiJson<{ code: RedeemCodeRow }>(`/api/admin/redeemCodes/${encodeURIComponent(code)}/disable`, { json: {} });

/** Downloads a batch's CSV (times in the admin's zone) as a file. */
export async function downloadBatchCsv(batchId: string): Promise<void> {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const response = await apiFetch(`/api/admin/redeemCodeBatches/${encodeURIComponent(batchId)}/csv?timeZone=${encodeURIComponent(timeZone)}`);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(response.status, body?.error ?? `The download failed (${response.status}). Please try again.`);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "redeem-codes.csv";
  saveFile(new Uint8Array(await response.arrayBuffer()), fileName, "text/csv");
}

/** A time in the admin's own zone, in words: "26 November 2026, 10:15". */
export const localDateTime = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }).format(ms);

/** What a code gives: "3 months of Pro", "Lifetime for good". */
export const grantText = (planName: string, months: number | null) =>
  months === null ? `${planName}, for good` : `${months} ${months === 1 ? "month" : "months"} of ${planName}`;

/** The last moment of a day (yyyy-mm-dd) in the admin's zone. */
export function endOfLocalDay(date: string): number {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(year!, month! - 1, day!, 23, 59, 59, 999).getTime();
}
