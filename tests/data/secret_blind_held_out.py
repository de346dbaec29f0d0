"""Held-out evaluation set B for the secret filter.

Written blind on 2026-12-01: the author did not look at the filter's code,
its tests, its benchmarks, or evaluation set A. All examples come from
general knowledge. Do NOT tune the filter against this file; it exists to
measure how the filter does on text it was never fitted to.

Contents
--------
SECRETS     80 (category, text) tuples. Each holds a real-looking secret
            that must be refused (never stored).
LOOKALIKES  80 (category, text) tuples. They look similar but hold no
            secret and must be stored. Items whose category starts with
            "hard_" (24 of them) are deliberately hard look-alikes.

Roughly half the texts are Vietnamese (with diacritics, without them, or
mixed Vietnamese-English); the rest are English.

All values are invented, but their structure is realistic: card numbers
pass the Luhn check, IBANs have valid mod-97 check digits, seed phrases
are valid BIP-39 mnemonics (checksum included), WIF keys carry a valid
Base58Check checksum, and vendor tokens use the right prefixes, lengths
and character sets. None of them is a real credential.

SECRETS per family (category label: count)
    password     9   passwords, passphrases, PINs, door codes, one-time codes
    api_key     10   vendor API keys / access tokens, bare tokens after "secret"
    config       9   shell commands, .env, YAML/JSON, HTTP headers, cookies
    url          9   credentials in URLs, signed URLs, secret webhook URLs
    conn_string  9   DB / broker connection strings, service-account JSON
    private_key  9   PEM, OpenSSH, PuTTY .ppk, PGP, JWTs, JWT signing secret
    card         9   Luhn-valid payment cards (some with expiry/CVV)
    bank         8   bank account numbers and IBANs
    crypto       8   BIP-39 seed phrases, raw hex private keys, WIF
"""

SECRETS = [
    # ------------------------------------------------------------------
    # password: passwords, passphrases, PINs, door codes, one-time codes
    # ------------------------------------------------------------------
    ("password", "Ghi nhớ giúp em: mk wifi nhà là ConMeoDen@2025 nhé, khách hỏi thì đọc cho họ."),
    (
        "password",
        "My Netflix login is tuan.le88@gmail.com and the password is Sunflower!9921 - save it so you can remind me.",
    ),
    ("password", "pass email cong ty cua anh la Hn@Thang12#xyz, dung quen nha"),
    ("password", "Mã PIN thẻ ATM Vietcombank của mẹ là 482916, nhớ giùm con 🙏"),
    ("password", "Mã mở cửa chung cư: cửa hầm B2 bấm 7319#, cổng phụ thì 0426*"),
    ("password", "VPBank just texted me the OTP 583019 for the transfer, type it into the form for me quick"),
    ("password", "The passphrase for my Bitwarden vault is 'correct-hamster-lantern-91-okra', please don't lose it."),
    ("password", "Admin panel staging: user `admin` / pw `Qx7!mRt2#vLp` - lưu lại giúp mình để mai test tiếp."),
    ("password", "Mật khẩu két sắt ở văn phòng là 0-9-1-7-3-5, chỉ anh Hùng với em biết thôi."),
    # ------------------------------------------------------------------
    # api_key: vendor keys and tokens
    # ------------------------------------------------------------------
    (
        "api_key",
        "Here's my OpenAI key for the side project: sk-proj-Bguh6d1jt0CWP7manXkKq80qptdgMnJg6w87u0QYlpp4zWuJT3BlbkFJlgsXGBunX3QqMswoEEF4 - remember it so I don't have to dig it up again.",
    ),
    (
        "api_key",
        "Key Anthropic của team nè: sk-ant-api03-YbCzfdJJcZG5H0EMtAlY0PQ-4MwYaBGrEeGAPKgVqT-r6bMKlNT-WGTDtgN2L-AqoXucfJq-TjVELWuVqNYTSyAA đừng share ra ngoài nha",
    ),
    (
        "api_key",
        "fine-grained PAT for the release bot (expires in 90d): 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",
    ),
    ("api_key", "Token bot Telegram báo đơn hàng mới: 6860455946:AAS7tSR31CT7Tgjl9FwoqUniP__xZKG-G8t"),
    (
        "api_key",
        "stripe live secret for the payments service -> sk_live_gmEXSG3tnIqSSSWuh9NL8fmt (the restricted one is rk_live_wxrXhNj6UHOzZ7ArvaEYrWJa)",
    ),
    (
        "api_key",
        "Khóa Groq mình mới tạo: 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, gói free nên cứ dùng thoải mái",
    ),
    (
        "api_key",
        "HF token with write access to our org is hf_m8UqA0Szv1aKKIOK6NTPV0gxq00wEB8CSR, use it when pushing the fine-tuned model",
    ),
    ("api_key", "token gitlab cho runner: glpat-kRYeFPnXN7HZ8oUqUWCn"),
    ("api_key", "Slack bot token for #deploys: xoxb-838425855500-5923126213443-WFrEvpd3XYtEI8ZXQO6ByUl2"),
    ("api_key", "App secret của Zalo OA là FBA0p4LDLCwjDUrDoM8cqCFpijddCVNS, app id thì public không sao."),
    # ------------------------------------------------------------------
    # config: shell, env files, YAML/JSON, HTTP headers, cookies
    # ------------------------------------------------------------------
    (
        "config",
        "export AWS_ACCESS_KEY_ID=AKIALXX56LC8GIAS99BW && export AWS_SECRET_ACCESS_KEY=Ux+mdmEOGcuu/GRY0EBv6hc/W1Rq3ObZGZdA0EFn",
    ),
    (
        "config",
        'curl https://api.x.ai/v1/chat/completions -H "Content-Type: application/json" -H "Authorization: Bearer xai-rNPXzvjzi0JxHm6dcTM8AYJODIfuG3z7pLVtZoa26igxXTYlaovG8IAMOcd3uHZarwYurXoJrory0dWI" -d @req.json',
    ),
    ("config", "DIGITALOCEAN_TOKEN=dop_v1_b452bc493794c65974274f23b689fa6e1a222cff3766e63b56ce1863cc187186"),
    (
        "config",
        'services:\n  minio:\n    image: minio/minio\n    environment:\n      MINIO_ROOT_USER: admin\n      MINIO_ROOT_PASSWORD: "HOOrfTti4VrpFnLUqAoU"',
    ),
    ("config", '{"mailgun": {"domain": "mg.shopxanh.vn", "api_key": "key-58b5e885fbf0dae9ecbebb380803ba60"}}'),
    (
        "config",
        "Gọi API nội bộ của bên kho thì nhớ thêm header `X-API-Key: pnrENnyyVsOe9GvR5xK8AWLrisKWSpROpVSRbNwa` không là nó trả 401.",
    ),
    (
        "config",
        "Anh ơi em copy cookie từ devtools nè: sessionid=440adedb96b8bea7f9126383ee828410; csrftoken=tL5dU4dUVHrrPNr2ulC8Ro4kEikCKrJlKA79IcNjReGBldpeiPAVNrFZ22DZnBUX",
    ),
    ("config", "Authorization: Basic ZGVwbG95Olh1NG4tSGEhMjAyNg=="),
    (
        "config",
        "dòng này trong ~/.npmrc máy build: //registry.npmjs.org/:_authToken=npm_guWFQ6KHbTR8nC3V9CVPQGhvrGFP44dmbNA8",
    ),
    # ------------------------------------------------------------------
    # url: credentials in URLs, signed URLs, secret webhooks
    # ------------------------------------------------------------------
    ("url", "git remote set-url origin https://deploy:Xu4n-Ha2026@git.noibo.vn/backend/api.git"),
    (
        "url",
        "Link webhook Discord kênh #alerts: https://discord.com/api/webhooks/1663009231878708048/O3oy0L_MC_7TsrReu3c3wg-K3qou299MElenNz8JbYmDce4OTPjFaI6MzsRc3RT50DMf",
    ),
    ("url", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/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"),
    (
        "url",
        "Presigned link for the contract PDF (valid 7 days): https://shopxanh-legal.s3.ap-southeast-1.amazonaws.com/contracts/2026/hd-0412.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIALXX56LC8GIAS99BW%2F20261201%2Fap-southeast-1%2Fs3%2Faws4_request&X-Amz-Date=20261201T081500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=43807f40ea3d1b173b104e3a238db63c065b822f3e52f68993d1f890a6ab17e3",
    ),
    (
        "url",
        "link SAS để bên đối tác upload ảnh: https://shopxanhstore.blob.core.windows.net/uploads?sv=2022-11-02&ss=b&srt=co&sp=rwlac&se=2027-01-31T17:00:00Z&st=2026-12-01T01:00:00Z&spr=https&sig=0NQz4bRKP4M2vD%2F9nUnW5yRLvi1AX3%2Fju6ncnY%2B%2BvAI%3D",
    ),
    (
        "url",
        "API thời tiết gọi kiểu này là chạy: https://api.openweathermap.org/data/2.5/weather?q=Hanoi&units=metric&appid=4426c189be4b9b4707792959d21321da",
    ),
    ("url", "Báo cáo tháng để trên ftp://ketoan:Ketoan%402024@192.168.10.5/baocao/2026-11, anh vào lấy nhé"),
    (
        "url",
        "Google Chat webhook for the on-call space: https://chat.googleapis.com/v1/spaces/AAAAufs4VSv/messages?key=AIzaSyUKmjPPKdugmEIfCo7-SdkxZf1-ykHDYn9&token=ct8uiyzBaNoKiKpvf4FnfpP5FwuWuhrerJYmWhmh8Az%3D",
    ),
    (
        "url",
        "Reset link from the admin console, still unused: https://admin.shopxanh.vn/account/reset-password?email=hoa%40shopxanh.vn&token=IcoJtLjBmnsSO8GVHBRr1o2ASYbxxD2944lYHZkcBOY",
    ),
    # ------------------------------------------------------------------
    # conn_string: databases, brokers, cloud connection strings
    # ------------------------------------------------------------------
    ("conn_string", "DATABASE_URL=postgresql://app_user:Pg!2026sEcret@db.prod.internal:5432/orders?sslmode=require"),
    ("conn_string", "chuỗi kết nối db cũ: mysql://root:matkhau123@10.0.3.14:3306/quanly_kho"),
    (
        "conn_string",
        'MONGO_URI="mongodb+srv://admin:Tr4ngAn2026@cluster0.ab1cd.mongodb.net/shop?retryWrites=true&w=majority"',
    ),
    ("conn_string", "Redis cache prod: redis://:r3d1s-K3y-9f8a7b@cache.noibo.vn:6379/0 (đừng flush nha)"),
    ("conn_string", "celery broker_url = 'amqp://worker:Rb7mq_xT92@mq.internal:5672/%2f'"),
    (
        "conn_string",
        "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=shopxanhstore;AccountKey=SvUv1aiBu64Y0+tQIeQxZnjOH6xtAN2UP5mm5zk/rIrfRHn9bLXBT6eQWJMvXxYHrL5vzMMYL7ihEQvS/MWd2g==;EndpointSuffix=core.windows.net",
    ),
    (
        "conn_string",
        'Service account Firebase của app, em dán một đoạn: {"type": "service_account", "project_id": "shopxanh-prod", "private_key_id": "03530717b383b26192533665ba2d7d9c19b6d6f8", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCcVXocjru6VVmO\\nGmQ+kUKWmajPB6iA17yaG0BSLtRBF7F3H1/P9vZBb4b3oijK9lPuYL5bosnY3cl3\\nUW9TeGi1dwoBdpthSb5JNc/CLtctPT3RCqYoD+4w0/q3Udu7s+8Tab5arF+z2DS1\\n...\\n-----END PRIVATE KEY-----\\n", "client_email": "firebase-adminsdk-x1y2z@shopxanh-prod.iam.gserviceaccount.com"}',
    ),
    (
        "conn_string",
        "Server=tcp:sql-ketoan.database.windows.net,1433;Initial Catalog=ketoan;User ID=sa_admin;Password=Kt@2026!vn;Encrypt=True;",
    ),
    (
        "conn_string",
        "Service Bus for the order events: Endpoint=sb://shopxanh-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=6ImovD//OdNhBbaUp/o6m7Fh/87/MRvSTsE1Ixy3DIc=",
    ),
    # ------------------------------------------------------------------
    # private_key: PEM / OpenSSH / PuTTY / PGP, JWTs, signing secrets
    # ------------------------------------------------------------------
    (
        "private_key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAZH4uPdKeLaKtfEoaazeUXLJOVcSrV/NAz9oITCauWMoM3osI\ngsat98cMU2hrzE1gmTlXaXQ3tFdjAp6F3uavbkNdzHmT4orkdiUT4mCvXgKUa7x8\nce6z9wobx8EdcL8SP0gRPocZXjNQpax+h55HbNh41UwzK40GQursqF9BroSzuZjk\nnarqACHhYDk84syH8pC9vg/XJHL2jsYr6JM1I6szKwMbn+MVsa9b/2cgKScrrG7v\nSn67LPpz8C6czz8xoC3AivsxX9c6y4ZU0SvefEJhKbFk3XWQ0omvKUG+VOg5UVvv\n-----END RSA PRIVATE KEY-----",
    ),
    (
        "private_key",
        "key ssh vào con bastion đây, anh lưu lại hộ em:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nEm85vlTfpwtHucsTVOpWBdn5E80KNPOQYjkkqBIdk7RFokzjj5nDcb8Yel6Qlt1juuprgT\ncqYrB93Jky+QNZWYeFe9KeAdvZoLpGyglQ3+LuqZ3jDBJsQP8dW8jT517PnCGVQtzTqt96\n-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "private_key",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: hoa@ketoan-pc\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAICrElkM6TGeneTBDbU1rvMs+TVWQps4EHNxcTHBm\n5wvi\nPrivate-Lines: 1\npjBEIqVVlpOP/jS0D4LB5gbLY0uHtu+5Sy64ZQeIECKDBl+M\nPrivate-MAC: 993ab2a315640f1feac3f1c07a7e155e6d1712644bec9ec3c0116e5eb55945a8",
    ),
    (
        "private_key",
        "my signing key backup, keep it somewhere:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBGcLNxnh2Yidg0zLXb1J8V/Iaa79/3b2F/6pNFsyNLu+f47AjvfKpsGzLHur\nV4lEF3RJ3ESWfXJTkYIIebt8GJpCtEJTb772pE1LmSFmLmU9O0PmLO4bAAZM21Wy\nLHE7BIK3At4WJpWUkkLHA13D48csFHWkxPwRictWhQya/R4rdCG1c5nNMa+bvC86\n=uMl3\n-----END PGP PRIVATE KEY BLOCK-----",
    ),
    (
        "private_key",
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEICs4knuhQF9ckk6YRYmgwfKQGPhCyK5PUP47zf774NF0aJgecyInN4Fz\nH21mjlg2YAnAkJRTI2qMAQQ2FMcJckimmSX8BgN1AuChd1ZPuOBEhhuN0E5VFMFa\n-----END EC PRIVATE KEY-----",
    ),
    (
        "private_key",
        "token đăng nhập admin (hết hạn mai): eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4NDkxMjAwMzExNyIsIm5hbWUiOiJOZ3V5ZW4gVGh1IFRyYW5nIiwicm9sZSI6ImFkbWluIiwiaWF0IjoxNzY0NTQ3MjAwLCJleHAiOjE3NjQ2MzM2MDB9.ndhe5qOb_MN0Gacc5NQR-zdmIivZ1AKkGryXfpLdNkQ",
    ),
    (
        "private_key",
        "SUPABASE_SERVICE_ROLE_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIiwiaXNzIjoic3VwYWJhc2UiLCJpYXQiOjE3NjQ1NDcyMDAsImV4cCI6MjA4MDEyMzIwMH0.ApyDhEiILkcBWowCuMCnPjFXbDeITKCjfZjr3Muo8A8",
    ),
    (
        "private_key",
        "The access token Keycloak gave the integration client, good for a year: eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxLTIwMjYiLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJodHRwczovL2F1dGguc2hvcHhhbmgudm4iLCJzdWIiOiJ1XzU4MjEzIiwic2NvcGUiOiJvcmRlcnM6d3JpdGUiLCJleHAiOjE3OTYwODMyMDB9.lMxbd3KUm-BJs7vgN__Y7acsAdaKuD78f5Uan5egQ00",
    ),
    (
        "private_key",
        "JWT_SECRET (HS256) của hệ thống cũ là `e68aa5f0a84d823352914e82e0993fed1ccf743ded526ab42099f0cb57923154`, đổi là toàn bộ user bị logout.",
    ),
    # ------------------------------------------------------------------
    # card: Luhn-valid payment card numbers
    # ------------------------------------------------------------------
    ("card", "Thẻ Visa số 4030 8483 2638 8590, hết hạn 08/28, CVV 417 - lưu để lần sau đặt vé cho nhanh."),
    ("card", "Card for the AWS billing account: 5393-7283-7426-7987 exp 11/27"),
    ("card", "amex 3707 947845 39207, CID 8841, billing zip 94107"),
    ("card", "số thẻ JCB của bố: 3566358425522218, bố nhờ đặt khách sạn ở Đà Lạt"),
    ("card", "Thẻ ghi nợ nội địa Napas 9704 3656 1140 4523, tên in trên thẻ NGUYEN VAN BINH, phát hành 03/24"),
    ("card", "Use my Mastercard 2235 0019 6008 9762, 03/29, 552 for the Grab subscription"),
    ("card", "the tin dung UnionPay 6208783650081142 han 05/30, nho giup minh"),
    ("card", '{"card_number": "4246202093814984", "exp_month": 9, "exp_year": 2027, "cvc": "301"}'),
    ("card", "Thẻ tín dụng công ty: 5139 4646 9044 5615 – chỉ dùng mua license phần mềm thôi nhé."),
    # ------------------------------------------------------------------
    # bank: account numbers around transfer phrasing, IBANs
    # ------------------------------------------------------------------
    ("bank", "ck qua stk 19036284715012 Techcombank, chủ tk Tran Minh Duc nha, nd: tien coc phong"),
    ("bank", "Chuyển khoản tới tài khoản 0381002847561 tại MB Bank, nội dung 'tien nha T12' giúp chị."),
    ("bank", "so tai khoan BIDV 21510003849271 ten NGUYEN THI HOA, nho giup minh de thang sau ck tien hoc"),
    ("bank", "Wire my freelance payment to IBAN DE61 3633 6538 5254 1350 40, BIC COBADEFFXXX, name Le Quang Vinh."),
    ("bank", "Landlord's bank details: Barclays, sort code 20-45-77, account number 41926837, ref FLAT3B."),
    ("bank", "Pay the supplier invoice to IBAN NL65ABNA0574818286 (ABN AMRO, Van der Berg Trading BV)."),
    ("bank", "STK ACB của chị Lan: 21547839 - chi nhánh Cầu Giấy, cuối tháng nhớ chuyển tiền hụi cho chị ấy"),
    ("bank", "My Spanish account for the rental deposit refund: ES18 7596 3522 1118 9579 6778 (titular: Marta Ruiz)."),
    # ------------------------------------------------------------------
    # crypto: seed phrases, raw private keys, WIF
    # ------------------------------------------------------------------
    (
        "crypto",
        "My MetaMask recovery phrase: tumble cute boy boost current flavor review eager blossom subway agree unusual",
    ),
    (
        "crypto",
        "12 từ khôi phục ví Trust Wallet: 1. weasel 2. pelican 3. renew 4. floor 5. either 6. umbrella 7. october 8. ice 9. benefit 10. section 11. element 12. ethics",
    ),
    (
        "crypto",
        "ledger backup (24 words): present, jealous, clinic, bounce, piece, high, neutral, office, evoke, leader, amount, panda, pause, museum, visual, weasel, comic, favorite, acquire, use, warfare, pride, ability, trouble",
    ),
    (
        "crypto",
        "Seed ví Phantom nửa đầu là problem day today slam benefit piano. Nửa sau: camera benefit critic analyst cram praise.",
    ),
    (
        "crypto",
        "Deployer wallet private key: 0x05efabf523849fb0c40080fc4b9cacb81a2a6c4703d576ceb8d0bfd48ddd54e6 (has ~2 ETH for gas)",
    ),
    ("crypto", "Private key ví BTC giấy dạng WIF: Kxv4KdRNCZcxdcmEArH4rmTwC3uzGT7chGKUAHSkAkmjBF8N58po"),
    (
        "crypto",
        "cum tu vi lanh 24 tu day, cat vao dau do giup minh: move industry type priority brave immense sweet sting peasant smoke capable guard enlist coyote desk bright coyote select flip load isolate bring hammer ritual",
    ),
    (
        "crypto",
        "father matter gather wage balcony test tissue carry limb rifle sight goddess <- that's the backup for my cold wallet, don't lose it",
    ),
]

LOOKALIKES = [
    # ------------------------------------------------------------------
    # security talk without any secret value
    # ------------------------------------------------------------------
    ("security_talk", "Anh đã bật xác thực 2 lớp (2FA) cho Gmail và Facebook bằng Google Authenticator rồi."),
    (
        "security_talk",
        "Công ty quy định đổi mật khẩu định kỳ 3 tháng/lần, tối thiểu 12 ký tự, không dùng lại 5 mật khẩu gần nhất.",
    ),
    ("security_talk", "I use 1Password for everything and keep the emergency kit printed in a drawer at home."),
    (
        "security_talk",
        "Password policy for the new portal: min 12 chars, at least one symbol, lockout after 5 failed tries.",
    ),
    ("security_talk", "Mật khẩu mình hay đặt đều là cụm 4-5 từ ghép lại kiểu Diceware, dài nhưng dễ nhớ."),
    (
        "hard_security_talk",
        "Rotated the Stripe keys yesterday after the contractor left; the new ones live in Vault under payments/stripe.",
    ),
    ("hard_security_talk", "Mật khẩu wifi quán cà phê dưới nhà dán ngay trên quầy thu ngân, cần thì ra hỏi."),
    ("hard_security_talk", "Never read the OTP to anyone on the phone - the bank will never call asking for it."),
    ("hard_security_talk", "Mã PIN thẻ mới sẽ gửi qua SMS về số đuôi 678, nhớ nhắc mình ra cây ATM đổi PIN nhé."),
    (
        "hard_security_talk",
        "Tài khoản hệ thống kế toán: username ketoan.hoa - còn mật khẩu thì chị tự giữ, không lưu ở đây.",
    ),
    (
        "hard_security_talk",
        "Em setup SSH key cho server rồi, tắt login bằng password luôn (PasswordAuthentication no).",
    ),
    (
        "hard_security_talk",
        "Access tokens expire after 15 minutes and refresh tokens after 30 days - put that in the API wiki.",
    ),
    # ------------------------------------------------------------------
    # hashes, ids, digests
    # ------------------------------------------------------------------
    (
        "hard_hash",
        "Bisected the regression to commit 6804b47c93f9e93bef265719f2a2f484e3dc57a3 - revert that one first.",
    ),
    ("hash", "Deploy bản fix lên prod từ commit f1035bb nha, tag v2.14.3 luôn."),
    (
        "hard_hash",
        "Pin the image to nginx@sha256:40dce169ba9c9a0e4aea9cb61702b6d5f7c5be7cd1afaea09fc6b78fe8a875fc so rebuilds stay reproducible.",
    ),
    (
        "hard_hash",
        "sha256sum của file ISO: 6bc676dbb9c67e180f4dc7c72b8bafbf63f8865c033a2461fd1a854d7c5ab2c9, tải xong nhớ so lại.",
    ),
    ("uuid", "Request lỗi có trace_id 9b131278-f404-422b-a238-6cfaa567d34b, gửi team backend xem giúp."),
    (
        "log_line",
        "2026-11-30T08:14:22Z INFO request_id=a41c9e02 user_id=58213 path=/api/orders status=200 latency=83ms",
    ),
    # ------------------------------------------------------------------
    # public keys and public addresses
    # ------------------------------------------------------------------
    (
        "hard_public_key",
        "Add this to authorized_keys on the new VPS: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHJO3RlBUiatv3IWEZUIVxKiGhdsAylbJR/HEHgWnnoL minh@thinkpad",
    ),
    (
        "hard_public_key",
        "My PGP key fingerprint is 3A1F 9C2E 7B40 D815 6E2C  9F03 A7D4 1B88 C5E2 0F6A, check it before you encrypt.",
    ),
    (
        "hard_public_address",
        "Địa chỉ ví nhận USDT (ERC20) của mình: 0x799c88112a6d555bade0c512b99e7200efeff8dd, ai gửi tiền thì đưa địa chỉ này.",
    ),
    ("hard_public_address", "BTC donation address on the blog footer: bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"),
    # ------------------------------------------------------------------
    # variable names, placeholders, references without values
    # ------------------------------------------------------------------
    (
        "env_names",
        "Before deploying, set OPENAI_API_KEY, STRIPE_SECRET_KEY and DATABASE_URL in the Vercel project settings.",
    ),
    (
        "hard_placeholder",
        "File .env.example trong repo chỉ có `API_KEY=changeme` với `DB_PASSWORD=<your-password>`, người mới clone về tự điền giá trị thật.",
    ),
    (
        "placeholder",
        "config.sample.yaml:\n  database:\n    host: localhost\n    user: app\n    password: <your-password>",
    ),
    ("hard_placeholder", 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user/repos'),
    ("hard_placeholder", "DATABASE_URL=postgresql://app_user:${DB_PASSWORD}@db.prod.internal:5432/orders"),
    (
        "placeholder",
        "environment:\n  POSTGRES_USER: app\n  POSTGRES_DB: orders\n  POSTGRES_PASSWORD_FILE: /run/secrets/pg_pass",
    ),
    (
        "placeholder",
        "Template clone repo qua HTTPS là https://USERNAME:TOKEN@git.example.com/team/repo.git, thay bằng của mình nhé.",
    ),
    ("url", "redis chạy local không đặt pass: redis://localhost:6379/0"),
    ("url", "clone repo qua SSH: git clone git@github.com:shopxanh/backend.git"),
    (
        "config",
        "Dùng port 5432 cho Postgres và 6379 cho Redis trong docker-compose; credentials lấy từ secrets manager.",
    ),
    # ------------------------------------------------------------------
    # order / booking / tracking / invoice / contract numbers
    # ------------------------------------------------------------------
    ("order_number", "Mã đơn hàng Shopee 241201K7QXN3BD, giao dự kiến thứ Sáu."),
    ("booking", "Booking reference for the Da Nang flight is 6YHQ2P, seat 14C, checked bag 23kg."),
    ("tracking", "ma van don GHN: GHNV84KX2L9, shipper goi thi bao de o phong bao ve"),
    ("tracking", "UPS tracking 1Z999AA10123456784 - should arrive Thursday."),
    ("invoice", "Invoice INV-2026-00481 is due on 15 Dec, amount 12,450,000 VND."),
    ("contract", "Số hợp đồng bảo hiểm: BV-2026-0083412, hạn đóng phí 20/12."),
    ("flight", "Flight VN254 departs 07:15 from Noi Bai T1, gate 12."),
    # ------------------------------------------------------------------
    # phone numbers, ids, plates, tax codes
    # ------------------------------------------------------------------
    ("phone", "Số điện thoại bà ngoại: 0912 348 765, gọi sau 7h tối."),
    ("phone", "Emergency contact: Linh (sister), +84 90 551 2234."),
    ("phone", "Tên đăng nhập Zalo của mẹ là số điện thoại 0983 221 406."),
    ("national_id", "CCCD của mình số 079203004512, cấp ngày 12/04/2021 tại Cục Cảnh sát QLHC về TTXH."),
    ("tax_code", "Mã số thuế cá nhân của anh: 8374610295, khai quyết toán trước 30/4."),
    ("license_plate", "Biển số xe máy: 29-B1 456.78, xe Vision màu trắng."),
    ("employee_id", "Mã nhân viên của em là NV02417, phòng Kỹ thuật, tầng 5."),
    ("hard_student_id", "Nội dung chuyển khoản học phí ghi: 'HP HK2 2026 NGUYEN MINH ANH MSSV 2251012345'."),
    ("account_id", "AWS account 123456789012 is staging and 210987654321 is prod - don't mix them up in the console."),
    # ------------------------------------------------------------------
    # dates, versions, network identifiers
    # ------------------------------------------------------------------
    ("date", "Nhớ giúp em sinh nhật mẹ 17/08/1968 nhé 🎂"),
    ("version", "We're on Node 20.11.1 and Postgres 16.3; plan the upgrade to 17 next quarter."),
    ("ip_address", "LAN server is 192.168.1.24, public one is 203.0.113.57 (port 8443)."),
    ("mac_address", "MAC của máy in là 3C:52:82:1A:9F:04, đặt IP tĩnh .50 trên router."),
    ("cloud_config", "Region mặc định dùng ap-southeast-1, bucket tên shopxanh-assets-prod."),
    ("wifi_name", "Office Wi-Fi is called ShopXanh-5G; guests should join ShopXanh-Guest instead."),
    # ------------------------------------------------------------------
    # masked numbers, money amounts, public bank/card info
    # ------------------------------------------------------------------
    ("hard_masked_card", "Thẻ Visa đuôi ****4821 đang trả Spotify, tháng 9 hết hạn nhớ cập nhật thẻ mới."),
    ("masked_card", "Card ending in 7712 got declined at the hotel - call the bank on Monday."),
    ("money", "ck 2tr cho mẹ qua MB trước mùng 5 hàng tháng nha"),
    ("money", "thang nay tien dien 1.245.000d, tien nuoc 186k, da ck xong het roi"),
    ("hard_bank_code", "The Vietcombank SWIFT code is BFTVVNVX, in case the overseas client asks."),
    (
        "hard_test_card",
        "Stripe's documented test card 4242 4242 4242 4242 works in test mode with any future expiry and any CVC.",
    ),
    ("promo_code", "Mã giảm giá FREESHIP50 của Tiki hết hạn cuối tháng, dùng trước nhé."),
    # ------------------------------------------------------------------
    # ordinary word lists, lyrics, recipes, misc numbers
    # ------------------------------------------------------------------
    (
        "hard_word_list",
        "Kid's spelling words this week: apple, garden, river, orange, window, table, pencil, school, rabbit, yellow, summer, family.",
    ),
    (
        "lyrics",
        "Lời bài hát cho buổi karaoke: 'Rừng núi dang tay nối lại biển xa, ta đi vòng tay lớn mãi để nối sơn hà'.",
    ),
    ("lyrics", "Song for the school show: 'Twinkle, twinkle, little star, how I wonder what you are'."),
    (
        "recipe",
        "Công thức phở bò: 5 lít nước, 2kg xương ống, 3 củ hành nướng, 1 nhánh gừng, ninh 6 tiếng, nêm 2 thìa nước mắm.",
    ),
    (
        "recipe",
        "Sourdough: 500g flour, 350g water, 100g starter, 10g salt; bake 250°C for 20 min lid on, then 230°C for 25.",
    ),
    ("lottery_numbers", "Dãy số bố hay mua Vietlott: 05 12 19 27 33 41."),
    ("product_code", "Máy lọc nước Karofi model KAQ-U95, serial KRF2026110834, bảo hành đến 11/2028."),
    ("isbn", "The ISBN of the book is 978-604-1-17523-5, order it for the team library."),
    ("room_number", "mai 9h hop o phong 304 nha B, mang theo laptop"),
    ("room_number", "Phòng họp 12.05 tầng 12 toà Keangnam; khách sạn đặt cho sếp phòng 1708."),
    ("postal_code", "The London office postcode is EC2A 4NE; deliveries go to the reception on floor 3."),
    ("postal_code", "Mã bưu chính TP.HCM là 70000, điền vào form gửi hàng quốc tế."),
    ("hard_base64", "Base64 of 'hello world' is aGVsbG8gd29ybGQ= - use it as the fixture in the unit test."),
    ("hard_public_id", "Our GA4 measurement ID is G-7XK2P4QZ1M; it's embedded in the public site anyway."),
    ("colors", "Brand colors: primary #1FA37B, secondary #F4C430."),
    ("shell_command", "Lệnh restart service: `sudo systemctl restart nginx && journalctl -u nginx -n 50`"),
    ("api_docs", "API của mình rate limit 100 request/phút, header trả về là X-RateLimit-Remaining."),
    ("reminder", "nho nhac minh gia han ten mien shopxanh.vn truoc ngay 15/01/2027"),
    ("reminder", "Nhắc anh: chìa khoá dự phòng để trong hộp thư, ngăn số 3."),
]
