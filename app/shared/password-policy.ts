/**
 * Password rules: at least 8 characters, at most 128, and not one of the most common
 * passwords (a short list of the most used ones from public breach corpora).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const COMMON = new Set(
  `123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 1234567890 1234567 qwerty
  abc123 000000 password1 iloveyou 123123 654321 qwertyuiop 123321 1q2w3e4r 1qaz2wsx 666666
  987654321 123qwe 11111111 88888888 12341234 123456a a123456 sunshine princess dragon monkey
  football baseball letmein shadow master welcome welcome1 passw0rd p@ssw0rd password123
  admin123 trustno1 superman batman starwars whatever freedom michael jennifer charlie
  hello123 zaq12wsx asdfghjk asdfasdf qazwsxedc 1q2w3e4r5t 11223344 aa123456 987654321a
  00000000 12121212 22222222 55555555 77777777 99999999 qwer1234 abcd1234 1234qwer
  changeme secret123 lovely computer internet samsung iloveyou1 mustang access
  jordan23 liverpool chelsea arsenal maggie ginger pokemon minecraft cookie1 summer2024
  winter2024 spring2025 autumn2025 raffle123 raffles jackpot123 lottery1 casino123`
    .split(/\s+/)
    .filter(Boolean),
);

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  if (COMMON.has(password.toLowerCase())) return "That password is too common. Please choose another.";
  return undefined;
}
