/**
 * The images one event carries, each by its place: a browser observation's `screenshot_data` first,
 * then every `image_urls` entry of the `ImageContent` items of its content (an observation's
 * `content`, a message's `llm_message.content`), in order. The place is how the panel asks for an
 * image again: the event log holds only each image's head, the whole comes from the server by the
 * event's id, and the same walk over the whole event finds the same image at the same place.
 */
import { isRecord } from '../records';
import type { AgentEvent } from './events';
import { drawCostProblem } from './imageDrawCost';
import { checkDataUrl, checkScreenshotData, type ImageCheck } from './images';

/** A screenshot's data, or one of an `ImageContent`'s URLs, as the event holds it (maybe cut). */
export interface EventImage {
  /** 0-based, in the order above. */
  index: number;
  /** `screenshot_data` (base64 or a data URL), or an image URL of any scheme. */
  value: unknown;
  from: 'screenshot' | 'content';
}

/** Past this many images in one event the rest are not shown (a hostile event can list thousands). */
export const MAX_IMAGES_PER_EVENT = 16;

export function eventImages(event: AgentEvent): EventImage[] {
  const images: EventImage[] = [];
  const add = (value: unknown, from: EventImage['from']) => {
    if (images.length < MAX_IMAGES_PER_EVENT) images.push({ index: images.length, value, from });
  };
  const observation = event['observation'];
  if (isRecord(observation)) {
    const screenshot = observation['screenshot_data'];
    if (typeof screenshot === 'string' && screenshot.length > 0) add(screenshot, 'screenshot');
    contentImages(observation['content'], (url) => add(url, 'content'));
  }
  const message = event['llm_message'];
  if (isRecord(message)) contentImages(message['content'], (url) => add(url, 'content'));
  return images;
}

/**
 * An event's image checked whole (a screenshot as `screenshot_data` is stored, a content image as a URL)
 * and cheap enough to draw: an event's images are drawn in the conversation page.
 */
export function checkEventImage(image: EventImage): ImageCheck {
  const check = image.from === 'screenshot' ? checkScreenshotData(image.value) : checkDataUrl(image.value);
  const tooCostly = check.ok ? drawCostProblem(check.image) : undefined;
  return tooCostly ? { ok: false, reason: tooCostly } : check;
}

function contentImages(content: unknown, add: (url: unknown) => void): void {
  if (!Array.isArray(content)) return;
  for (const item of content.slice(0, MAX_IMAGES_PER_EVENT)) {
    if (!isRecord(item) || item['type'] !== 'image' || !Array.isArray(item['image_urls'])) continue;
    for (const url of item['image_urls'].slice(0, MAX_IMAGES_PER_EVENT)) add(url);
  }
}
