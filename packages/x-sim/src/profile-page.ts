import type { FastifyInstance } from 'fastify';
import { html } from './sign-in-page';
import { simPage } from './post-page';
import type { World } from './world';

/** Posts an account's page lists at most, newest first. */
const SHOWN = 20;

/**
 * `GET /{handle}`: an account's page in simulation mode, as x.com would show it (the records page of a breakdown
 * links members there): name, handle, and its latest visible posts, each linking to its own page. An unknown or
 * suspended account is a 404 page; a protected one shows no posts.
 */
export function registerProfilePage(app: FastifyInstance, deps: { world: World }) {
  app.get('/:handle', async (request, reply) => {
    // Read when a request comes, so a lazy world is built then (plugin.ts).
    const { world } = deps;
    const { handle } = request.params as { handle: string };
    const user = world.userByUsername(handle);
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
    if (!user || user.suspended) {
      return reply
        .code(404)
        .send(page('Account not found on the simulated X', '      <h1>This account doesn’t exist</h1>'));
    }
    const posts = user.protected
      ? []
      : world
          .postsByTime()
          .filter((p) => p.authorId === user.id && world.isVisible(p))
          .slice(-SHOWN)
          .reverse();
    const items = posts
      .map((p) => {
        const at = new Date(p.createdAt).toISOString();
        return `          <li><a href="${html(user.username)}/status/${p.id}">${html(p.text)}</a> <time datetime="${at}">${at.slice(0, 16).replace('T', ' ')} UTC</time></li>`;
      })
      .join('\n');
    return reply.send(
      page(
        `${user.name} (@${user.username}) on the simulated X`,
        `      <h1 class="author">${html(user.name)} <span class="handle">@${html(user.username)}</span></h1>
        <p>${user.protected ? 'These posts are protected.' : `${posts.length === 0 ? 'No posts yet.' : 'Latest posts:'}`}</p>
        <ul>
${items}
        </ul>`,
      ),
    );
  });
}

const page = (title: string, body: string) => simPage(title, body, '', 'account');
