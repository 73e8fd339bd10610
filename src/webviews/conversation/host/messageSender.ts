/**
 * A message from the panel on its way to the agent: its images checked again by their bytes, then
 * sent through the steering, each step (resuming, connecting, sending, sent, failed) shown by its
 * outbox entry until the server's echo arrives. No vscode import.
 */
import { messageOf } from '../../../api/errors';
import { checkBase64 } from '../../../api/agentServer/images';
import type { Steering } from '../../../state/conversationSteering';
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
}
