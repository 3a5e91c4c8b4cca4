/* global document, location */
// The built-in Mana card maker (served as /maker.html inside the maker modal's sandboxed frame; it reads its
// query string only): draws a shareable card on a canvas from the query string and the form, downloads it as PNG and
// offers a prefilled post with the programme's hashtags. No imports: a classic script.
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const programme = (params.get('programme') || 'Manaboard').slice(0, 40);
  const tags = (params.get('tags') || '')
    .split(',')
    .map((tag) => tag.trim().replace(/^#/, ''))
    .filter(Boolean)
    .slice(0, 5);
  const canvas = document.getElementById('card');
  const form = document.getElementById('facts');
  const post = document.getElementById('post');
  const ctx = canvas.getContext('2d');
  const W = canvas.width;
  const H = canvas.height;
  const font = (weight, size) =>
    `${weight} ${size}px ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif`;

  form.handle.value = (params.get('handle') || '').replace(/^@/, '');
  form.rank.value = params.get('rank') || '';
  form.mana.value = params.get('mana') || '';
  document.getElementById('tags').textContent = tags.length ? tags.map((t) => `#${t}`).join(' ') : '';

  function facts() {
    const digits = (value) => value.replace(/[^0-9]/g, '');
    return {
      handle: form.handle.value.trim().replace(/^@/, '').slice(0, 30),
      rank: digits(form.rank.value),
      mana: digits(form.mana.value),
    };
  }

  function gem(cx, cy, size, alpha) {
    const g = ctx.createLinearGradient(cx - size, cy - size, cx + size, cy + size);
    g.addColorStop(0, '#f5d0fe');
    g.addColorStop(0.5, '#a855f7');
    g.addColorStop(1, '#4c1d95');
    ctx.globalAlpha = alpha;
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.moveTo(cx, cy - size);
    ctx.lineTo(cx + size * 0.6, cy - size * 0.3);
    ctx.lineTo(cx, cy + size * 0.9);
    ctx.lineTo(cx - size * 0.6, cy - size * 0.3);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = 'rgba(245,243,255,0.35)';
    ctx.beginPath();
    ctx.moveTo(cx, cy - size);
    ctx.lineTo(cx + size * 0.6, cy - size * 0.3);
    ctx.lineTo(cx, cy);
    ctx.lineTo(cx - size * 0.6, cy - size * 0.3);
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = 1;
  }

  function draw() {
    const f = facts();
    const bg = ctx.createLinearGradient(0, 0, W, H);
    bg.addColorStop(0, '#2e1065');
    bg.addColorStop(0.55, '#120d1f');
    bg.addColorStop(1, '#1c1530');
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    const glow = ctx.createRadialGradient(W / 2, 470, 40, W / 2, 470, 460);
    glow.addColorStop(0, 'rgba(168,85,247,0.55)');
    glow.addColorStop(1, 'rgba(168,85,247,0)');
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = '#fbbf24';
    ctx.lineWidth = 6;
    ctx.strokeRect(36, 36, W - 72, H - 72);
    ctx.strokeStyle = 'rgba(251,191,36,0.35)';
    ctx.lineWidth = 2;
    ctx.strokeRect(56, 56, W - 112, H - 112);
    gem(W / 2 - 250, 520, 90, 0.5);
    gem(W / 2 + 250, 540, 80, 0.5);
    gem(W / 2, 470, 210, 1);

    ctx.textAlign = 'center';
    ctx.fillStyle = '#fbbf24';
    ctx.font = font(800, 44);
    ctx.fillText(programme.toUpperCase(), W / 2, 140);
    ctx.fillStyle = '#ffffff';
    ctx.font = font(800, 76);
    ctx.fillText(f.handle ? `@${f.handle}` : '@yourhandle', W / 2, 850, W - 160);
    ctx.fillStyle = '#c4b5fd';
    ctx.font = font(700, 48);
    ctx.fillText(f.rank ? `Rank #${f.rank}` : 'Rank #—', W / 2, 940);
    ctx.fillStyle = '#fbbf24';
    ctx.font = font(900, 120);
    ctx.fillText(`${f.mana ? Number(f.mana).toLocaleString('en-US') : '0'} MANA`, W / 2, 1100, W - 140);
    ctx.fillStyle = '#ede9fe';
    ctx.font = font(600, 38);
    ctx.fillText(tags.map((t) => `#${t}`).join('  '), W / 2, 1220, W - 160);

    const text =
      `I've earned ${f.mana ? Number(f.mana).toLocaleString('en-US') : 'my first'} Mana on ${programme}` +
      (f.rank ? ` (rank #${f.rank})` : '') +
      `! ${tags.map((t) => `#${t}`).join(' ')}`.trimEnd();
    post.href = `https://x.com/intent/post?text=${encodeURIComponent(text)}`;
  }

  document.getElementById('download').addEventListener('click', () => {
    canvas.toBlob((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${programme.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-mana-card.png`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, 'image/png');
  });
  form.addEventListener('input', draw);
  form.addEventListener('submit', (event) => event.preventDefault());
  draw();
})();
