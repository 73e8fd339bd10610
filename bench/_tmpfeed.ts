import { conversationFeedReport } from './conversationFeed';
void conversationFeedReport().then((l) => console.log(l.join('\n')));
