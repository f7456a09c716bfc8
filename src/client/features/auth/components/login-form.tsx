import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginInput, LoginInputSchema } from '@shared/contracts/auth';
import { useForm } from 'react-hook-form';
import { InputField } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { useLogin } from '../api/login';

/** LoginForm signs in with email and password, for servers that allow local sign-in. */
export function LoginForm() {
  const login = useLogin();
  const form = useForm<LoginInput>({
    resolver: zodResolver(LoginInputSchema),
    defaultValues: { email: '', password: '' },
  });

  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((input) => login.mutate(input))}
      >
        <InputField
          control={form.control}
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
        />
        <InputField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <Button type="submit" className="w-full" pending={login.isPending}>
          Sign in
        </Button>
      </form>
    </Form>
  );
}
