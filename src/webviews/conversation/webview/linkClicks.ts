/**
 * Links never navigate the page: a click or a middle click on one is stopped, and the host is asked to
 * open it if `linkPolicy.ts` lets it through (http, https and mailto only).
 */
import { safeLinkUrl } from './linkPolicy';

export function sendLinksToHost(open: (url: string) => void): void {
  const clicked = (event: MouseEvent): void => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const link = target.closest('a');
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.type !== 'click' && event.button !== 1) return;
    const url = safeLinkUrl(link.getAttribute('href'));
    if (url) open(url);
  };
  document.addEventListener('click', clicked, true);
  document.addEventListener('auxclick', clicked, true);
}
