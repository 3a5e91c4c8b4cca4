import type { FastifyInstance } from 'fastify';
import { html } from './sign-in-page';
import type { World } from './world';
import type { SimPost, SimUser } from './world-types';

// Made on first use: creating it loads ICU's number data, ~5 MB of the binary resident in every server that
// never shows this page (issue 23).
let numberFormat: Intl.NumberFormat | undefined;
const formatNumber = (value: number) => (numberFormat ??= new Intl.NumberFormat('en-US')).format(value);

/** The page's own few rules, appended to the sign-in stylesheet (no inline styles: strict CSP). */
export const postPageCss = `
article{margin:0}
.author{margin:.25rem 0 0;font-weight:700}
.handle{color:#8b98a5;font-weight:400}
.text{font-size:1.15rem;line-height:1.5;white-space:pre-wrap;overflow-wrap:anywhere;margin:1rem 0}
time{color:#8b98a5;font-size:.9rem}
dl{display:flex;flex-wrap:wrap;gap:8px 20px;margin:1rem 0 0;padding:12px 0 0;border-top:1px solid #2f3336}
dl div{display:flex;gap:6px}
dt{color:#8b98a5}
dd{margin:0;font-weight:700}
`;

/**
 * A page of the simulation (a post's, an account's): `root` is the path back to the plugin's root from the page
 * (the stylesheet is served there), `what` names what exists only in the simulation.
 */
export function simPage(title: string, body: string, root: string, what: 'post' | 'account'): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${html(title)}</title>
    <link rel="stylesheet" href="${root}assets/sign-in.css">
  </head>
  <body>
    <main>
      <p class="badge">Simulated X — this ${what} exists only in the simulation</p>
${body}
    </main>
  </body>
</html>`;
}

const page = (title: string, body: string) => simPage(title, body, '../../', 'post');

/** One post as simple accessible HTML: author, text, time and public metrics. */
export function postPage(world: World, post: SimPost, author: SimUser): string {
  const metrics = world.metrics(post);
  const figures: [string, number][] = [
    ['Replies', metrics.reply_count],
    ['Reposts', metrics.retweet_count],
    ['Quotes', metrics.quote_count],
    ['Likes', metrics.like_count],
  ];
  const at = new Date(post.createdAt).toISOString();
  return page(
    `${author.name} (@${author.username}) on the simulated X`,
    `      <article aria-labelledby="post-author">
        <h1 id="post-author" class="author">${html(author.name)} <span class="handle">@${html(author.username)}</span></h1>
        <p class="text">${html(post.text)}</p>
        <time datetime="${at}">${at.slice(0, 16).replace('T', ' ')} UTC</time>
        <dl aria-label="Engagement">
${figures.map(([name, value]) => `          <div><dt>${name}</dt><dd>${formatNumber(value)}</dd></div>`).join('\n')}
        </dl>
      </article>`,
  );
}

/**
 * `GET /{handle}/status/{id}`: the page a post's link opens in simulation mode, as x.com would show the post.
 * A post X would not show (deleted, not yet posted, protected or suspended author) or a handle that is not the
 * author's is a 404 page.
 */
export function registerPostPage(app: FastifyInstance, deps: { world: World }) {
  app.get('/:handle/status/:id', async (request, reply) => {
    const { world } = deps;
    const { handle, id } = request.params as { handle: string; id: string };
    const post = /^\d{1,19}$/.test(id) ? world.post(id) : undefined;
    const author = post ? world.user(post.authorId) : undefined;
    const shown =
      post && author && world.isVisible(post) && author.username.toLowerCase() === handle.toLowerCase();
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
    if (!shown || !post || !author) {
      return reply
        .code(404)
        .send(
          page(
            'Post not found on the simulated X',
            `      <h1>This post doesn’t exist</h1>\n      <p>It may have been deleted, or it is not visible.</p>`,
          ),
        );
    }
    return reply.send(postPage(world, post, author));
  });
}
