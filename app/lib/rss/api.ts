import type {
  CreateRssFeedBody,
  RssCheckResponse,
  RssFeed,
  RssFeedItem,
  RssFeedItemsResponse,
  RssFeedResponse,
  RssFeedsResponse,
  UpdateRssFeedBody,
} from "../../../contracts/pinterest/rss.ts";
import { apiJson } from "../api-client.ts";

/** The RSS feed calls (/api/rss, decision 044), as the browser makes them. */

export async function fetchRssFeeds(): Promise<RssFeed[]> {
  return (await apiJson<RssFeedsResponse>("/api/rss/getRSSFeeds")).rssFeeds;
}

export async function createRssFeed(body: CreateRssFeedBody): Promise<RssFeed> {
  return (await apiJson<RssFeedResponse>("/api/rss/createRSSFeed", { json: body })).rssFeed;
}

export async function updateRssFeed(id: string, changes: UpdateRssFeedBody): Promise<RssFeed> {
  return (await apiJson<RssFeedResponse>(`/api/rss/updateRSSFeed/${encodeURIComponent(id)}`, { method: "PATCH", json: changes })).rssFeed;
}

export async function deleteRssFeed(id: string): Promise<void> {
  await apiJson(`/api/rss/deleteRSSFeed/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export async function fetchRssFeedItems(id: string): Promise<RssFeedItem[]> {
  return (await apiJson<RssFeedItemsResponse>(`/api/rss/getRSSFeedItems/${encodeURIComponent(id)}`)).items;
}

export function checkRssFeed(id: string): Promise<RssCheckResponse> {
  return apiJson<RssCheckResponse>(`/api/rss/checkRSSFeed/${encodeURIComponent(id)}`, { method: "POST", json: {} });
}
