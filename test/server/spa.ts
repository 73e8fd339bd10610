// The frontend's index.html: what the real server's SPA mount answers for any unknown GET path
// (including trailing-slash variants of API paths).

export const SPA_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>OpenHands</title>
    <script type="module" crossorigin src="/assets/index-emulated.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
