import { render } from 'preact';
import { href, useRoute } from './router.js';
import { BotPage } from './pages/bot.js';
import { ContestPage } from './pages/contest.js';
import { ContestsPage } from './pages/contests.js';
import { GamePage } from './pages/game.js';
import { HomePage } from './pages/home.js';
import { BotsPage, GamesPage, MatchesPage } from './pages/lists.js';
import { MatchPage } from './pages/match.js';
import { RegisterPage } from './pages/register.js';
import { TestPage } from './pages/test.js';
import './styles.css';

/** The app: a header with the main pages, and the page the address names. */
function App() {
  const route = useRoute();
  const [page, id] = route.parts;
  const step = route.query.get('step');
  let body;
  if (page === 'games' && id) body = <GamePage id={id} />;
  else if (page === 'matches' && id) body = <MatchPage id={id} start={step !== null ? Number(step) : undefined} key={id} />;
  else if (page === 'bots' && id) body = <BotPage id={id} />;
  else if (page === 'games' && !id) body = <GamesPage />;
  else if (page === 'matches' && !id) body = <MatchesPage route={route} />;
  else if (page === 'bots' && !id) body = <BotsPage route={route} />;
  else if (page === 'contests') body = id ? <ContestPage id={id} key={id} /> : <ContestsPage />;
  else if (page === 'register') body = <RegisterPage />;
  else if (page === 'test') body = <TestPage route={route} />;
  else if (!page) body = <HomePage />;
  else
    body = (
      <p class="error">
        No page here: {location.hash}. Go to the <a href="#/">home page</a>.
      </p>
    );
  return (
    <>
      <header class="top">
        <a href="#/" class="brand">
          Botarena
        </a>
        <nav>
          <a href={href('games')}>games</a>
          <a href={href('matches')}>matches</a>
          <a href={href('bots')}>bots</a>
          <a href={href('contests')}>contests</a>
          <a href={href('test')}>test a bot</a>
          <a href={href('register')}>register a bot</a>
          <a href="/docs">API</a>
        </nav>
      </header>
      {body}
    </>
  );
}

render(<App />, document.getElementById('app')!);
