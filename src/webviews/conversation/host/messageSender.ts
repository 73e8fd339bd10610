/**
 * A message from the panel on its way to the agent: its images checked again by their bytes, then
 * sent through the steering, each step (resuming, connecting, sending, sent, failed) shown by its
 * outbox entry until the server's echo arrives. No vscode import.
 */
import { messageOf } from '../../../api/errors';
import { checkBase64 } from '../../../api/agentServer/images';
import type { Steering } from '../../../state/conversationSteering';
import type { StartSource } from '../../../state/conversationStart';
import type { Attachment } from '../shared/protocol';
import { Outbox } from './outbox';

export class MessageSender {
  readonly outbox = new Outbox();

  constructor(
    private readonly steer: Steering,
    /** The outbox changed: the header shows it. */
    private readonly changed: () => void,
  ) {}

  async send(text: string, resume: boolean, attachments: readonly Attachment[]): Promise<void> {
    // what the page attached is checked again here, by its bytes: only real images leave
    const checked = attachments.map((attachment) => ({ attachment, check: checkBase64(attachment.base64) }));
    const images = checked.flatMap(({ check }) =>
      check.ok ? [`data:${check.image.mime};base64,${check.image.bytes.toString('base64')}`] : [],
    );
    const refused = checked.find(({ check }) => !check.ok);
    const id = this.outbox.add(
      text,
      resume ? 'resuming' : 'sending',
      checked.flatMap(({ attachment, check }) => (check.ok ? [attachment] : [])),
    );
    if (refused && !refused.check.ok) {
      this.outbox.step(
        id,
        'failed',
        `the image “${refused.attachment.name}” cannot be sent: ${refused.check.reason}.`,
      );
      this.changed();
      return;
    }
    this.changed();
    try {
      await this.steer.send(
        text,
        resume,
        (step) => {
          if (this.outbox.step(id, step)) this.changed();
        },
        images,
      );
      this.outbox.step(id, 'sent');
    } catch (error) {
      this.outbox.step(id, 'failed', messageOf(error));
    }
    this.changed();
  }

  /**
   * A message typed while the conversation starts: queued on the server, shown as queued until the
   * agent's echo; refused in words (its text back in the input). Too late to queue: sent as usual.
   */
  async queue(start: StartSource, text: string, attachments: readonly Attachment[]): Promise<void> {
    // the server's queue takes images, but a start's request path keeps them out: said, never dropped
    if (attachments.length) {
      const id = this.outbox.add(text, 'failed', attachments);
      this.outbox.step(
        id,
        'failed',
        'images cannot wait while the conversation starts. Send them once it has started.',
      );
      this.changed();
      return;
    }
    const id = this.outbox.add(text, 'sending');
    this.changed();
    const outcome = await start.queue(text);
    if (outcome.kind === 'notStarting') {
      this.outbox.drop(id);
      return this.send(text, false, attachments);
    }
    if (outcome.kind === 'queued') this.outbox.step(id, 'queued');
    else this.outbox.step(id, 'failed', outcome.reason);
    this.changed();
  }
}
