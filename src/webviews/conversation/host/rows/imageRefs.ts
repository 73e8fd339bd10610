/**
 * An event's images as the rows carry them: a reference (the event and the image's place) with what its
 * head says (kind and size) for each image that may be a picture, and a line saying why for each that
 * may not (SVG, a remote or `javascript:` URL, not an image, cut). No bytes: the page asks for them.
 */
import { checkEventImage, type EventImage } from '../../../../api/agentServer/eventImages';
import { IMAGE_HEAD_CHARS } from '../../../../api/agentServer/eventLog';
import { drawCostProblem } from '../../../../api/agentServer/imageDrawCost';
import { peekImage } from '../../../../api/agentServer/images';
import type { ImageRef } from '../../shared/rows';

export interface EventImageRefs {
  refs: ImageRef[];
  /** Why an image cannot be shown, one line each. */
  refused: string[];
}

export function imageRefs(eventId: string, images: readonly EventImage[]): EventImageRefs {
  const refs: ImageRef[] = [];
  const refused: string[] = [];
  for (const image of images) {
    const noun = image.from === 'screenshot' ? 'Screenshot' : 'Image';
    const seen = whatItIs(image);
    if (!seen.ok) {
      const subject = image.from === 'screenshot' ? 'The screenshot' : 'An image';
      refused.push(`${subject} cannot be shown: ${seen.reason}.`);
      continue;
    }
    const kind = seen.mime.slice('image/'.length).toUpperCase();
    const size = seen.width && seen.height ? ` ${seen.width}×${seen.height}` : '';
    refs.push({
      event: eventId,
      index: image.index,
      ...(seen.width && seen.height ? { width: seen.width, height: seen.height } : {}),
      label: `${noun}:${size} ${kind}`,
    });
  }
  return { refs, refused };
}

/** A value held whole is checked whole; a longer one (held as its head) is judged by its head. */
function whatItIs(image: EventImage): ReturnType<typeof peekImage> {
  const value = image.value;
  if (typeof value === 'string' && value.length < IMAGE_HEAD_CHARS) {
    const check = checkEventImage(image);
    return check.ok
      ? { ok: true, mime: check.image.mime, width: check.image.width, height: check.image.height }
      : check;
  }
  // a head has the sides: a picture too costly to draw is said at once (its frames wait for the whole)
  const peek = peekImage(value);
  const tooCostly =
    peek.ok && peek.width && peek.height
      ? drawCostProblem({ width: peek.width, height: peek.height })
      : undefined;
  return tooCostly ? { ok: false, reason: tooCostly } : peek;
}
