-- Sessions: one row per distinct session token the server has verified, so `activeSessions` can
-- count a user's unexpired ones. Only the token's SHA-256 (hex) is stored: a database leak must not
-- hand out live sessions. Times are unix milliseconds, as in `users`.
CREATE TABLE sessions (
    token_hash  TEXT    PRIMARY KEY,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at  BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX sessions_by_user_and_expiry ON sessions (user_id, expires_at);

-- Wisdom: the quotes `POST /api/wisdom` picks from. Seeded with real, correctly attributed quotes
-- about building software, simplicity and reliability.
CREATE TABLE wisdom (
    id      BIGSERIAL PRIMARY KEY,
    quote   TEXT NOT NULL UNIQUE,
    orator  TEXT NOT NULL
);

INSERT INTO wisdom (quote, orator) VALUES
    ('Simplicity is prerequisite for reliability.', 'Edsger W. Dijkstra'),
    ('Program testing can be used to show the presence of bugs, but never to show their absence!', 'Edsger W. Dijkstra'),
    ('Simplicity is a great virtue but it requires hard work to achieve it and education to appreciate it. And to make matters worse: complexity sells better.', 'Edsger W. Dijkstra'),
    ('The competent programmer is fully aware of the strictly limited size of his own skull; therefore he approaches the programming task in full humility.', 'Edsger W. Dijkstra'),
    ('We should forget about small efficiencies, say about 97% of the time: premature optimization is the root of all evil.', 'Donald Knuth'),
    ('Beware of bugs in the above code; I have only proved it correct, not tried it.', 'Donald Knuth'),
    ('Programs must be written for people to read, and only incidentally for machines to execute.', 'Harold Abelson and Gerald Jay Sussman'),
    ('There are two ways of constructing a software design: One way is to make it so simple that there are obviously no deficiencies, and the other way is to make it so complicated that there are no obvious deficiencies.', 'C. A. R. Hoare'),
    ('The price of reliability is the pursuit of the utmost simplicity.', 'C. A. R. Hoare'),
    ('The most effective debugging tool is still careful thought, coupled with judiciously placed print statements.', 'Brian Kernighan'),
    ('Everyone knows that debugging is twice as hard as writing a program in the first place. So if you''re as clever as you can be when you write it, how will you ever debug it?', 'Brian W. Kernighan and P. J. Plauger'),
    ('Controlling complexity is the essence of computer programming.', 'Brian W. Kernighan and P. J. Plauger'),
    ('Adding manpower to a late software project makes it later.', 'Fred Brooks'),
    ('Plan to throw one away; you will, anyhow.', 'Fred Brooks'),
    ('The bearing of a child takes nine months, no matter how many women are assigned.', 'Fred Brooks'),
    ('Perfection is achieved, not when there is nothing more to add, but when there is nothing left to take away.', 'Antoine de Saint-Exupéry'),
    ('Make it work, make it right, make it fast.', 'Kent Beck'),
    ('I''m not a great programmer; I''m just a good programmer with great habits.', 'Kent Beck'),
    ('Optimism is an occupational hazard of programming: feedback is the treatment.', 'Kent Beck'),
    ('Any fool can write code that a computer can understand. Good programmers write code that humans can understand.', 'Martin Fowler'),
    ('Walking on water and developing software from a specification are easy if both are frozen.', 'Edward V. Berard'),
    ('Talk is cheap. Show me the code.', 'Linus Torvalds'),
    ('Given enough eyeballs, all bugs are shallow.', 'Eric S. Raymond'),
    ('When in doubt, use brute force.', 'Ken Thompson'),
    ('One of my most productive days was throwing away 1000 lines of code.', 'Ken Thompson'),
    ('The cheapest, fastest, and most reliable components are those that aren''t there.', 'Gordon Bell'),
    ('Fools ignore complexity. Pragmatists suffer it. Some can avoid it. Geniuses remove it.', 'Alan Perlis'),
    ('Simplicity does not precede complexity, but follows it.', 'Alan Perlis'),
    ('Everything fails, all the time.', 'Werner Vogels'),
    ('Always implement things when you actually need them, never when you just foresee that you need them.', 'Ron Jeffries'),
    ('Data dominates. If you''ve chosen the right data structures and organized things well, the algorithms will almost always be self-evident.', 'Rob Pike'),
    ('Clear is better than clever.', 'Rob Pike'),
    ('A little copying is better than a little dependency.', 'Rob Pike'),
    ('Write programs that do one thing and do it well. Write programs to work together. Write programs to handle text streams, because that is a universal interface.', 'Doug McIlroy'),
    ('Thinking doesn''t guarantee that we won''t make mistakes. But not thinking guarantees that we will.', 'Leslie Lamport'),
    ('A distributed system is one in which the failure of a computer you didn''t even know existed can render your own computer unusable.', 'Leslie Lamport'),
    ('Software is like entropy. It is difficult to grasp, weighs nothing, and obeys the Second Law of Thermodynamics; i.e., it always increases.', 'Norman Augustine'),
    ('Be conservative in what you do, be liberal in what you accept from others.', 'Jon Postel'),
    ('All problems in computer science can be solved by another level of indirection.', 'David Wheeler'),
    ('There are only two hard things in Computer Science: cache invalidation and naming things.', 'Phil Karlton'),
    ('Good code is its own best documentation.', 'Steve McConnell'),
    ('The first 90 percent of the code accounts for the first 90 percent of the development time. The remaining 10 percent of the code accounts for the other 90 percent of the development time.', 'Tom Cargill'),
    ('Simple things should be simple, complex things should be possible.', 'Alan Kay'),
    ('It always takes longer than you expect, even when you take into account Hofstadter''s Law.', 'Douglas Hofstadter'),
    ('Duplication is far cheaper than the wrong abstraction.', 'Sandi Metz'),
    ('The only way to go fast, is to go well.', 'Robert C. Martin'),
    ('Some people, when confronted with a problem, think "I know, I''ll use regular expressions." Now they have two problems.', 'Jamie Zawinski');
