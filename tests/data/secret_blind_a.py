"""Blind evaluation set A for the memory "secret filter".

Written by: a helper session started by the project (evaluation-set author),
            working from its own knowledge only.
Date:       2026-12-01
Counts:     SECRETS    = 90 (category, text) tuples, each containing a real-looking
                         secret that must be refused.
            LOOKALIKES = 90 (category, text) tuples that look similar but contain no
                         secret and must be stored; 15 of them are deliberately hard
                         (category prefixed with "hard_").

Written blind: the author did not open the filter's code, its tests, its benchmarks
or the baseline, and did not search for secret-detection code. Every value is
invented (randomly generated or made up), never a real credential, but it is
structurally realistic: vendor prefixes and lengths, charsets, Luhn-valid card
numbers, mod-97-valid IBANs, BIP-39 mnemonics with valid checksums, freshly
generated throw-away PEM/OpenSSH keys, well-formed JWTs.

Texts mix English and Vietnamese (with and without diacritics) and are phrased
the way an assistant might propose a memory, or the way a user pastes a line.
"""

SECRETS = [
    # ------------------------------------------------------------------ 1. passwords
    ("password", "Mật khẩu wifi nhà mình là Hoangmai@2611, nhớ giúp em để lần sau khách hỏi."),
    ("password", "My Techcombank internet banking login is minh.tran88 / Tcb#Lotus4471"),
    ("password", "pass: qU7!rZe2#mPw"),
    ("password", "PASSWORD=Bx9$kLm2Qw!z"),
    ("password", 'db_password: "s3rv1ce-Ocean-77!"'),
    ("password", "staging admin pwd -> Cafe$uaDa2025"),
    ("password", "mk facebook cua anh la thuytien1995@@ dung quen nha"),
    (
        "password",
        "The passphrase for the laptop's disk encryption is 'purple otter drinks cold coffee at 6am' - please remember it for me.",
    ),
    ("password", "Tài khoản Netflix chung của cả nhà: lananh.ng@gmail.com, mật khẩu NetflixNha#09."),
    # ------------------------------------------------------------ 2. PINs / OTP codes
    ("pin_otp", "[VCB] Ma OTP cua Quy khach la 482913. Tuyet doi KHONG chia se ma nay cho bat ky ai."),
    ("pin_otp", "The 2FA code is 771 204, type it in before it expires."),
    ("pin_otp", "Mã PIN thẻ ATM Agribank của mẹ là 0718, để con rút tiền giúp mẹ."),
    ("pin_otp", "Mã cửa căn Airbnb ở Đà Lạt là 4729, bấm xong nhấn nút khóa."),
    ("pin_otp", "Két sắt trong tủ quần áo phòng ngủ mở bằng mã 5-9-1-3-0-8."),
    ("pin_otp", "ma cong chung cu moi doi thanh *2580# nha, bam xong keo cua ra"),
    # ------------------------------------------------ 3. vendor-prefixed API keys
    (
        "api_key_prefixed",
        "OPENAI_API_KEY=sk-proj-Mjg0IzNjZhYyOTRSfWTvOyW26kCsesTZ8Ex6_YutvmXGCRpCT3BlbkFJMxwLabMy3mSzWMN5Dzl0RLmC3rwviHXYfHufb5DsE2A5ePp9",
    ),
    (
        "api_key_prefixed",
        "Key Claude cho dự án chatbot: sk-ant-api03-ojHuDBDcvUsd2m6JUPT-paE19o954UBAjXEiBsRMWTk2sa7F5xD8edQ7hlfr6wXiLF4RE9r8mWXEvYLLB95QNe-KLIkf0AA",
    ),
    (
        "api_key_prefixed",
        "PAT fine-grained của GitHub (hết hạn sau 90 ngày): 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",
    ),
    ("api_key_prefixed", "GitLab deploy token của team là glpat-8YncGn5jc_9aLLcPVhZ6"),
    ("api_key_prefixed", "SLACK_BOT_TOKEN: xoxb-862724076453-2347658820818-riyiHFqdjlIqi3Dy1zF1MCIT"),
    (
        "api_key_prefixed",
        "Stripe live secret key cho shop: 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",
    ),
    (
        "api_key_prefixed",
        "Twilio: Account SID AC56d8fbe2e2c271b328464b1d3eb18370, Auth Token d2070944a9886299543287436e898b32",
    ),
    ("api_key_prefixed", "SENDGRID_API_KEY=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"),
    ("api_key_prefixed", "hugging face write token hf_VGvOTykf1aAl1x7eoXT4URDNPn6jGs3L0N dùng để push model lên hub"),
    ("api_key_prefixed", "//registry.npmjs.org/:_authToken=npm_8Ikoy2PQcypQdYL3XKLNDvqOjjajRenFKDx7"),
    (
        "api_key_prefixed",
        "Token PyPI để publish package: pypi-AgEIcHlwaS5vcmc7DdwBhuK8jgm5LeoMh5SySPYPqxyhu3eoi_CwS9CIcXcGu1upfUsOwM0JNha",
    ),
    ("api_key_prefixed", "DOPPLER_TOKEN=dp.pt.nuAy5KwtDwf4O8TBFZJWpeJduQo74l7S8LPo6cs7XdE"),
    ("api_key_prefixed", "Key API Linear cá nhân của mình: lin_api_NmfA0lDji0tiGRshMBGanmSc1aJSGNbL9UybgZNG"),
    (
        "api_key_prefixed",
        "Notion integration secret cho bảng chi tiêu: secret_iC7cgdKGQXY5r0MtCf5mZR2yhnFD8rL4T7llQ7lN5tr",
    ),
    (
        "api_key_prefixed",
        "Bot Discord của server game: MzIzNjA4MTg4ODUwNzk1MzU3.gxw6sD.J8g0_l3o0ODKmx-rmW4krfm7vIy1aiwQC3fcrG",
    ),
    ("api_key_prefixed", "REPLICATE_API_TOKEN=r8_MWy2UwML8k5H0ypA4IfyEfrOQYHPe0WYdd5vZ"),
    ("api_key_prefixed", "mailgun private key: key-c65cadf123466e8a9d931e6d0f5ef490 (domain mg.tiemhoa.vn)"),
    # --------------------------------------- 4. unprefixed high-entropy secrets
    ("api_key_unprefixed", "token: b505de35305913d97fbaf1dfd2316eb3f7ee1b6ca63df5be"),
    ("api_key_unprefixed", "Khóa bí mật của Zalo OA là x5DXR9L11zZjGXqSNNErssA2GzJQ, đừng đưa cho bên agency."),
    ("api_key_unprefixed", "20oGgKX4aotXtdWYjKLjUv4liexpPZQuQ4YRfUOO"),
    ("api_key_unprefixed", "client_secret=pchVcFgdQ6z2vRl9H8cFR8gfRFD54B5B"),
    ("api_key_unprefixed", "secret cua webhook thanh toan: vEY5W3BN0qNV7DJVLHU5ccgSuhPj6n8s"),
    ("api_key_unprefixed", "Secret key đối tác MoMo: EmtOSjjXV65vB2PuBoq4pBmZpgiaT6VXMuLnRx78"),
    ("api_key_unprefixed", "HMAC signing secret của API nội bộ = 70fecd0ff398ff74f19dbd2ef2ad5413da10bc314951296b"),
    # ---------------------------------------------------------- 5. split keys
    (
        "api_key_split",
        "sk-proj- OTXV 4OWA HJid 3_-B Jt4q dfvh 4F4g JFKy g7qK x2GJ YAXL eXWY Zpdq bzvf ckye WAD- zhQC Ae94 QYoB MrcM mvEh CVmO GqD7 DrCy NBEG rUje Fll6 nQXd i03P YZZh bMGS lal8 JRB7 xbcP 0TZ4 TgvC m8gE X_hX a_Tm",
    ),
    ("api_key_split", "the key is ghp_ 5iW22ZJQQdphbyVgij (second half: WoPtoegSJcq5LVJdgh)"),
    (
        "api_key_split",
        "Key Groq mình chia 2 dòng cho dễ copy:\ngsk_mBYeoXhXTERy5LdpSspBT7NX\nsWlbkgLPIqXknPseIHDv2BiWerkf",
    ),
    ("api_key_split", "AWS key: AKIA-SKHO-CPLQ-FONY-TF4N, secret w2fi19xExlzk/PLDZhdv KdWRjS6R+0tmCAfqV/Mw"),
    (
        "api_key_split",
        "Phần đầu của token là xoxp-747215143173-682949391931-, phần còn lại 7903148847049-40f32eb84725be6b8341e76dd0daa54e",
    ),
    ("api_key_split", "telegram token 252616488 : AA7GjHiHWvWbBuOt PaieiZ1g5zbnjk2Qn3u (bỏ dấu cách khi dán)"),
    # --------------------------------------- 6. Authorization headers / cookies
    ("auth_header", "Authorization: Bearer MEaB5DuHwYFFNTJisq0LbateXBFoBDO1An8fCgwR"),
    ("auth_header", "Authorization: Basic ZGVwbG95LWJvdDpOZzchdlEycEx4Izk="),
    ("auth_header", "Header gọi API GitHub Enterprise: Authorization: token ghp_QRA7DDnsbvhaydH0j5RDCopYHKwh9B6NbH5G"),
    ("auth_header", "Cookie: sessionid=a1154651a183d57660f8fd592e67c0b0; csrftoken=1b11d6cdd2218674ac8f62c219ba5e49"),
    (
        "auth_header",
        "curl -H 'X-API-Key: q7iXK2hXbRH9_YNXxqhV9rRW2lnidn1o' https://api.giaohangnhanh.example/v2/orders",
    ),
    ("auth_header", "Trang quản trị cần header Basic YWRtaW46UXV5bmhAMjAyNHNlY3VyZQ== mới vào được."),
    # ------------------------------------------ 7. URLs with credentials / secrets
    (
        "url_credentials",
        "Webhook Slack báo đơn hàng mới: https://hooks.slack.com/services/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",
    ),
    (
        "url_credentials",
        "webhook discord cho kênh #alerts: https://discord.com/api/webhooks/291599495412958770/69hKVL4gFxT_hQartp6l0LEfVRsTngyFYlsLc0kIqGqI6uI4Q1hh7tSN6SVPinbxKUlo",
    ),
    ("url_credentials", "Zapier catch hook cho form đăng ký: https://hooks.zapier.com/hooks/catch/5906142/plwzjct/"),
    (
        "url_credentials",
        "Địa chỉ backup NAS (đã kèm tài khoản): https://backup:Tr1ple-Lock-88@nas.nhaminh.home:5001/webdav",
    ),
    (
        "url_credentials",
        "Link xem báo cáo (đừng gửi ai): https://metabase.congty.vn/api/public/dashboard?token=8zxLk1eW3gxiZyw7odjIEwr01F8yNpSN2FjPklfb_oE",
    ),
    (
        "url_credentials",
        "https://maps.googleapis.com/maps/api/geocode/json?address=Hoan+Kiem&key=AIzaSyvA8pywjkrRYUAw3sd29sRKMYhbPDQpFcH",
    ),
    (
        "url_credentials",
        "Presigned link for the invoice PDF: https://ketoan-invoices.s3.ap-southeast-1.amazonaws.com/2026/11/inv-0042.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAJBZ4OJBLKYZGHK6D%2F20261201%2Fap-southeast-1%2Fs3%2Faws4_request&X-Amz-Date=20261201T031500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=fd74244155d5f0033df5a777bed2120f4660134d02922c8a09c7b3a34c25f4c4",
    ),
    (
        "url_credentials",
        "link tai file hop dong: https://storage.googleapis.com/hd-khachhang/hd-2026-117.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=uploader%40hd-prod.iam.gserviceaccount.com%2F20261201%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261201T020000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=3e839eb5c9f532524b978b5bb0e7b5895e7b613fbbfa200feed98de94e45b2e1ce8e63e0237a176de29d29b75a72936b4cd71b556facbebd842cbd4caeed8ec0e64fc353128bb015f321a74ff4e7024eb6d8f24641f271c4d2849d68a35bf39d88521d0131092f7f9ca51c1e916252daade7f6aa1997733fcba5c98b07a579f5b26bfe935de770f04ca0b52b29be737d4bde632c0e07548a3e5d6cd7e10db0e7f96b95422915381e4e6fca758e4bde33f1b0be927b4dc1277b8a69cbaeab3d84bebbcc72852c3ea074438514570333fbdd0b001c929ad16528e2596d92cf627bd00e4e95d30ba358cb33548eb678cf09790bd06fa5f622a7073d70adf38ae04c",
    ),
    # ---------------------------------------------------- 8. connection strings
    ("connection_string", "DATABASE_URL=postgres://bestie_app:Pg7vRw2xQe9L@db.internal.bestie.vn:5432/bestie_prod"),
    (
        "connection_string",
        "mongodb+srv://analytics:Xk29fLpQ7vNm@cluster0.ab1cd.mongodb.net/events?retryWrites=true&w=majority",
    ),
    ("connection_string", "REDIS_URL=redis://:t7GaYGFmmzrfrmNvMu4Q@redis-cache.internal:6379/0"),
    ("connection_string", "RabbitMQ của hệ thống gửi mail: amqp://mailer:Rb-Queue-5521@mq.local:5672/%2Fprod"),
    (
        "connection_string",
        "DefaultEndpointsProtocol=https;AccountName=anhcuoistorage;AccountKey=lEk/avizUNna1/99SKpuWpPMG3DAs0+ppjhi50M3WrE0cmJhA7hnL/1bdMTO6pqMRIgCw6XZwXPLj6DKDxEN9w==;EndpointSuffix=core.windows.net",
    ),
    (
        "connection_string",
        "Service Bus: Endpoint=sb://datve-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=96a35UpZWzbAQuSayFK8A9+Lxy7h7t7BlEFmqGYzCc8=",
    ),
    (
        "connection_string",
        "Server=tcp:ketoan-sql.database.windows.net,1433;Initial Catalog=KeToan;User ID=ktadmin;Password=Kt#Sql2026!;Encrypt=True;",
    ),
    (
        "connection_string",
        "Báo cáo nhân sự kết nối bằng jdbc:mysql://10.10.1.5:3306/hr?user=hr_report&password=HrRep0rt_77&useSSL=true",
    ),
    # ------------------------------------------------- 9. private keys and JWTs
    (
        "private_key",
        """Đây là key SSH để vào server, lưu giúp mình:
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACD/CZ8h/GeVCb8a3VzFyCCuPNAE9lCC0/BqbhVdzp9dKwAAAJAOWF9LDlhf
SwAAAAtzc2gtZWQyNTUxOQAAACD/CZ8h/GeVCb8a3VzFyCCuPNAE9lCC0/BqbhVdzp9dKw
AAAED7CT0R2sg4BAlQPN7BvFDjnnSzlYM9p7roAsQVTk0R7P8JnyH8Z5UJvxrdXMXIIK48
0AT2UILT8GpuFV3On10rAAAAC21pbmhAbGFwdG9wAQI=
-----END OPENSSH PRIVATE KEY-----""",
    ),
    (
        "private_key",
        """-----BEGIN RSA PRIVATE KEY-----
MIICXAIBAAKBgQD7ZltPWQs5A36NcH2gMuejgLKEYdc5MBF+lLGZcUCsefNIX0K8
gyLXv5bNNGc44EKbtopMd9tU1mPQ5Q4lOn11Lm3lba2EHuGNnNCfbjF/hSJEGPwn
xumQKjmUC7KSno6Uy0SDrPGopRzYg1ljBc+DohBXGTCGIT2V1rPGXdxtxQIDAQAB
AoGAUawYH/gSoEwVUgfomCHRhRmrZTyP+iE2ncPayrmzRBU+RxXDjZCgwiyY5kOP
AThCC2pLFbqeg7o+pT+0z71nwgQjYE0omOaH2Ic2o+527oMv5dmJBtGPrIw2dfbb
HJ4V39+/q3DVtHNh3EsrnyaRyXYiWaofavBWIMizIcWULWECQQD/u5hErKzZScIP
lgohMGfzmVxFxIa2MZN5Vm3GukJlJ0iOUuyxLi7n9Xay3HlP5wJQX+4W9OYrxiN1
1Wt4XWXNAkEA+6maVbu3C96UMW/Je6ummlflV8s61NV+CHHoGi0XqWA0R28axVqW
heBcbWZ8DPlHL0dxvo/Hcrr4qbXK/IKv2QJAVoeEIyCGL9OMLTfoX4iAc+VdWmH/
7t/hdXnwFQDq/E0JeNbILb9hsazVp/l/trCEkOuUpQHia8dUMkevYH/BtQJADUB6
EwemdOaMkSncxzlbtYbpWb0m5Ow1DcbJvQ8gztd1CUntc/T4NiaBV3VtFNXPjMrL
T4iMrRrxWyZqgO90yQJBAKF0UDxKuPEuFqJ/+SIiuxWhoRwyZX2H+tIwNE8oxSMC
YlIqngO3N16g4Gl20nfbCiVCfv6ooUFF8c23ELZu7nI=
-----END RSA PRIVATE KEY-----""",
    ),
    (
        "private_key",
        """PuTTY-User-Key-File-3: ssh-ed25519
Encryption: none
Comment: eddsa-key-20261120
Public-Lines: 2
AAAAC3NzaC1lZDI1NTE5AAAAIPkz2SFW6DEJ74Bj11jJYz2G5BkrYFkNI/E+h3c6
aryb
Private-Lines: 1
AAAAIHvOSk5FZCV6Zt7aBvaA5bx1+9IE9yt3fMx0jXyGO9Y8
Private-MAC: 4c2ff0b3bec8635ddd58f7200af32310e7cb4535ec478e5927a3bb5c60e358fd""",
    ),
    (
        "private_key",
        """khoa ky cua minh, cat giup minh nhe:
-----BEGIN PGP PRIVATE KEY BLOCK-----

lFgEZ+lxbKFze3wSVgDugW2baWN/+5YAa0MU1iZ0WVGMMG6Way9MGd6McY2+q18l
jbXRrIH1t1OCs0t2bxZY3cbVUyZPuniJKOYo0SwmppbvOGd1zBYug24jq8Rr4X+1
Ajf9siqcLdoPvwGJmo/J09GpRKhIGwA8S9gb3WQoPkfw3hJtaNHhgPlYeHbj9BKK
Eq9SaeHlinyPFqNFKhAotA4bnrQWMQfkPe5thHe0o4HmRM8MAYeuYUoDNVxbz0bv
=IK1q
-----END PGP PRIVATE KEY BLOCK-----""",
    ),
    (
        "private_key",
        "JWT admin để test API: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1XzgzOTIxIiwibmFtZSI6IlRyYW4gTWluaCIsInJvbGUiOiJhZG1pbiIsImlhdCI6MTc2NDU0NzIwMCwiZXhwIjoxNzY0NjMzNjAwfQ.1Z360uwj2u6ZEVrRGXuj_VDg2sDY_XLInv5P4tZVkM0",
    ),
    (
        "private_key",
        "access_token=eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2F1dGguc2hvcG5oYW5oLnZuIiwic3ViIjoiNDQ3MSIsInNjb3BlIjoib3JkZXJzOndyaXRlIiwiZXhwIjoxNzY3MjI1NjAwfQ.wBkECciti9jAoeVnPGA9iUTSVZnKJSfT1tOqiEWDmfB1aDpZ3kxAJMeQiihEDKKjz3iE2tAt9aN53z9l2pmIOnSYOovNfajy6a4miubDtnI4e5KZnpO2-HxJtRJMdLspFPgbCjCMMYI1Y4AX-WKwiypJnQZMk2ik3N7RQOGL-nF5_X0qZebCTNfSdkQ9-jRHGSM5yg918w980qjsiyAglp9A6yaXoPWOhPbAetx0DKgx9FM6vdQG6kA4mNqJw7vUaJhS9QknSsdyfOXgzHyKIIvj8yYvmvSrQKUees4yU8FXLSRgRA2su5IBKoUaGiTpdWLXElN9s2UtpCfl_cI3-Q",
    ),
    # ------------------------------------------------------- 10. card numbers
    ("card_number", "My Visa is 4232.3321.1325.0723, exp 11/28, CVV 552 - use it for the hotel deposit."),
    ("card_number", "Số thẻ tín dụng của chị: 4036 1915 5797 5296, hạn 08/29, mã CVV 417."),
    ("card_number", "Amex 3447 035191 89587 exp 03/30 CID 9024"),
    ("card_number", "the company Mastercard 5199185870442604"),
    ("card_number", "so the mastercard cua anh 55695 247128 65 626 het han 12/27"),
    ("card_number", "Thẻ JCB để đặt vé máy bay: 3528-7373-4129-3177, hết hạn 05/28."),
    # ------------------------------------------------------ 11. bank accounts
    ("bank_account", "Chuyển khoản tiền nhà vào STK 1031887254 Vietcombank, chủ tài khoản NGUYEN THI HOA."),
    ("bank_account", "Số tài khoản Techcombank của anh là 19037426518013, chi nhánh Hoàn Kiếm."),
    ("bank_account", "For the US wire: account no. 483920175561, routing 026009593 (Bank of America)."),
    ("bank_account", "IBAN của chủ nhà ở Berlin: DE54 3704 0044 0532 0182 86"),
    ("bank_account", "Pay the invoice to GB02NWBK60161331927596, NatWest, ref INV-2211."),
    ("bank_account", "stk bidv cua me 21510004567893, ten TRAN THI MAI"),
    # -------------------------------------------------------- 12. seed phrases
    (
        "seed_phrase",
        "Ví MetaMask của mình, 12 từ khôi phục: spare endorse hint deputy clarify cactus issue measure offer file struggle very",
    ),
    (
        "seed_phrase",
        "1. tone 2. expand 3. absurd 4. bottom 5. order 6. exercise 7. hurry 8. salad 9. cruise 10. bitter 11. electric 12. clog",
    ),
    (
        "seed_phrase",
        "recovery phrase (ledger): exhaust, mail, push, leave, metal, truth, atom, crush, stay, novel, sea, mountain, neglect, company, hat, drift, coral, mercy, derive, simple, outdoor, urban, stem, shrug",
    ),
    ("seed_phrase", "verify coyote meat rocket foam scrap circle twelve place viable treat unaware"),
    (
        "seed_phrase",
        "cum tu bi mat vi trust wallet: excite slight icon balcony tag evil erode donor screen ready day orient organ throw cupboard argue artwork hero fetch shield under walk enjoy jazz",
    ),
]

LOOKALIKES = [
    # ------------------------------------------- talk about secrets, no value
    ("talk_about_secrets", "User uses Bitwarden as password manager and syncs it between phone and laptop."),
    ("talk_about_secrets", "Hỏi cách đổi mật khẩu Gmail trên điện thoại Android."),
    ("talk_about_secrets", "Prefers 2FA with an authenticator app (Aegis) instead of SMS codes."),
    ("talk_about_secrets", "Quên mật khẩu email hôm qua, đã lấy lại bằng số điện thoại."),
    ("talk_about_secrets", "Muốn đổi mã PIN thẻ ATM ở quầy Vietcombank vào tuần sau."),
    ("talk_about_secrets", "Keeps the GitHub recovery codes printed in a drawer at home, not on the computer."),
    ("talk_about_secrets", "khong bao gio luu mat khau tren trinh duyet, chi dung 1Password"),
    ("talk_about_secrets", "Rotated all the Stripe API keys last Friday after the contractor left."),
    ("talk_about_secrets", "Bị khóa tài khoản ngân hàng vì nhập sai mã PIN 3 lần, phải ra quầy mở lại."),
    # ------------------------------------------------------- git commit hashes
    ("commit_hash", "The regression started in commit d43134c, revert that one first."),
    ("commit_hash", "Bản vá lỗi đăng nhập nằm ở commit a3f9e21 trên nhánh release/2.4."),
    ("commit_hash", "cherry-pick 7b2e0c4 và 9d1f6a8 sang nhánh hotfix giúp mình"),
    # ------------------------------------------------------------------- UUIDs
    ("uuid", "Ticket hỗ trợ của Shopee có mã yêu cầu 952546c3-a0a3-4615-b456-93f8e1d6a168."),
    ("uuid", "The Home Assistant device id for the living-room lamp is 3f1c9e2a-7b44-4d2e-9a10-55c2e8f0b6d1."),
    ("uuid", "workspace id tren Notion: 5e0b7a12-9c3d-4f81-a6e2-0d4b8c7f1e93"),
    # --------------------------------------- order / invoice / booking / tracking
    ("order_number", "Đơn Shopee mã 241130QX7K9M2P đang giao, dự kiến thứ Ba tới."),
    ("order_number", "Vietnam Airlines booking code is K7XQ2M, flight VN245 Hanoi to Saigon on 20 Dec."),
    ("order_number", "Hóa đơn điện tháng 11 số 0001482 của EVN Hà Nội, ký hiệu 1K26TAA."),
    ("order_number", "ma van don GHTK S21917.HN3.A12.784512 cua don noi chien"),
    ("order_number", "UPS tracking number 1Z4W7E860392718455 for the package from Korea."),
    # ------------------------------------------------------------ phone numbers
    ("phone", "Số điện thoại của cô giáo chủ nhiệm: 0912 345 678."),
    ("phone", "Her new number is +84 987 654 321, the old Viettel SIM is cancelled."),
    ("phone", "sdt tho sua dieu hoa 0383.112.456, goi sau 8h sang"),
    ("phone", "Hotline Vietcombank 1900 545413 nếu mất thẻ."),
    # --------------------------------------------------------- dates and times
    ("datetime", "Lịch khám răng lúc 14:30 ngày 12/12/2026 ở Nha khoa Paris."),
    ("datetime", "Flight lands at 06:45 on 2026-12-20, pick up at Tan Son Nhat terminal 1."),
    ("datetime", "Sinh nhật mẹ là 17/08/1962."),
    # --------------------------------------------------- versions / build ids
    ("version", "App Bestie trên máy mình đang là bản 3.14.2 (build 20261128.4)."),
    ("version", "Upgraded the server to PostgreSQL 16.4 and Django 5.1.3."),
    ("version", "iOS 18.1.1 build 22B91 bị lỗi pin, đang chờ bản 18.2."),
    ("version", "Firmware of the router is v1.2.7-r2388 released 2026-10-02."),
    # ----------------------------------------------------- checksums / hashes
    ("checksum", "MD5 checksum of the wedding video file: 8c7dd922ad47494fc02c388e12c00eac, same as on the USB copy."),
    ("checksum", "Mã băm SHA-1 của file hợp đồng sau khi ký số: 16d4afa270ff905221b8edc8c851e6275a3f7da4."),
    ("checksum", "The CRC32 of the firmware image is 0x3A7F1C9E, matches the vendor page."),
    # --------------------------------------------- product serials and models
    ("serial_model", "Serial máy giặt LG là 312KWZK4H829, model FV1409S4W, còn bảo hành đến 2027."),
    ("serial_model", "Laptop is a ThinkPad X1 Carbon Gen 12, serial PF4XK2LM, bought at FPT Shop."),
    ("serial_model", "so IMEI dien thoai cu: 356789104523418, de khai bao mat may"),
    # ------------------------------------------------------ IP addresses, ports
    ("ip_port", "Home Assistant runs at 192.168.1.50:8123 on the local network."),
    ("ip_port", "Máy in văn phòng có IP tĩnh 10.0.0.23, cổng 9100."),
    ("ip_port", "The VPS public IP is 103.97.125.18, SSH moved to port 2222."),
    ("ip_port", "DNS mình dùng là 1.1.1.1 và 8.8.8.8, IPv6 2606:4700:4700::1111."),
    # ------------------------------------------------- plain URLs, no secrets
    ("plain_url", "Trang tra cứu điểm thi: https://diemthi.hcm.edu.vn/tra-cuu"),
    ("plain_url", "Favourite pho recipe is at https://www.seriouseats.com/pho-recipe"),
    ("plain_url", "Link họp Google Meet hằng tuần: https://meet.google.com/abc-defg-hij"),
    ("plain_url", "The repo is https://github.com/minhtran/bestie-notes, public."),
    # -------------------------------------- non-Luhn long numbers / ID numbers
    ("id_number", "Số CCCD của bố: 001067012345, cấp ngày 10/05/2021."),
    ("id_number", "Mã số thuế cá nhân của em là 8012345678."),
    ("id_number", "Passport number C1234567, expires March 2031."),
    ("id_number", "so BHXH cua me 0123456789, kiem tra tren app VssID"),
    ("id_number", "Mã học sinh của bé Na là 7901234567 để đóng học phí online."),
    # ---------------------------------------- English word lists, not seeds
    ("word_list", "Shopping list: eggs, tomatoes, fish sauce, rice noodles, coriander, limes, chillies, shallots."),
    (
        "word_list",
        "Favourite line: 'Do not go gentle into that good night, old age should burn and rave at close of day.'",
    ),
    ("word_list", "Từ vựng tiếng Anh tuần này: ambitious, reluctant, thorough, curious, generous, stubborn."),
    ("word_list", "Packing for Sa Pa: jacket, gloves, boots, scarf, charger, passport, umbrella."),
    # ---------------------------------------------------- short ids / file names
    ("short_id", "Ảnh hộ chiếu đã lưu với tên IMG_20261128_093412.jpg trong Google Photos."),
    ("short_id", "YouTube video id dQw4w9WgXcQ is the song she wants for the party."),
    ("short_id", "Mã khách hàng trên app điện lực: PD01000123456."),
    # ----------------------------------------------------------- public keys
    (
        "public_key",
        "My laptop's public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP8JnyH8Z5UJvxrdXMXIIK480AT2UILT8GpuFV3On10r minh@laptop",
    ),
    (
        "public_key",
        "Thêm public key này vào GitHub: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPkz2SFW6DEJ74Bj11jJYz2G5BkrYFkNI/E+h3c6aryb eddsa-key-20261120",
    ),
    # ------------------------------------------- env variable names, no values
    ("env_var_name", "Remember to set DATABASE_URL and SECRET_KEY in the .env file before deploying."),
    ("env_var_name", "Biến môi trường OPENAI_API_KEY phải khai báo trong GitHub Secrets, không commit vào repo."),
    ("env_var_name", "set AWS_ACCESS_KEY_ID va AWS_SECRET_ACCESS_KEY trong ~/.aws/credentials"),
    # ---------------------------------------------- Wi-Fi names without password
    ("wifi_name", "Wi-Fi ở nhà tên là 'NhaMinh_5G', mạng khách là 'NhaMinh_Guest'."),
    ("wifi_name", "The office Wi-Fi network is called 'Bestie-Office'; IT hands out the password at onboarding."),
    # ----------------------------------------------------- PIN mentioned, no code
    ("pin_no_code", "PIN code of the apartment block is on the notice board in the lobby."),
    ("pin_no_code", "Mã cửa phòng gym thay đổi mỗi tháng, lễ tân sẽ nhắn qua Zalo."),
    # ------------------------------------------------------------ money amounts
    ("money_amount", "Chuyển 500k cho Lan tiền ăn trưa hôm thứ Sáu."),
    ("money_amount", "Rent is 12,500,000 VND a month, due on the 5th."),
    ("money_amount", "da tra 2.350.000d tien dien nuoc thang 11"),
    # ------------------------------------------------- partially masked accounts
    ("masked_account", "Lương về tài khoản Techcombank ****8013 mỗi ngày 10."),
    ("masked_account", "The Visa ending in 0723 is the one for subscriptions."),
    ("masked_account", "stk vcb xxxxxx7254 la tai khoan chinh"),
    # ------------------------------------------------------- room/door numbers
    ("room_number", "Phòng họp tầng 7, phòng 702, tòa Keangnam."),
    ("room_number", "Her apartment is B-1204, Vinhomes Central Park, building Landmark 2."),
    ("room_number", "Tủ đồ ở phòng gym số 38, chìa khóa treo ở lễ tân."),
    # ================================================= deliberately hard ones
    ("hard_placeholder_key", "Trong README ghi OPENAI_API_KEY=sk-proj-your-key-here, nhớ thay bằng key thật lúc chạy."),
    (
        "hard_password_policy",
        "Mật khẩu mới phải dài ít nhất 12 ký tự, gồm chữ hoa, chữ số và ký tự đặc biệt như @ hoặc #.",
    ),
    (
        "hard_dsn_no_password",
        "Local dev DATABASE_URL is postgres://localhost:5432/bestie_dev (no password, peer auth).",
    ),
    (
        "hard_aws_account_id",
        "Our AWS account ID is 493820176650 and CI assumes arn:aws:iam::493820176650:role/github-deploy.",
    ),
    ("hard_non_luhn_16_digits", "Số hợp đồng bảo hiểm Prudential: 4445 6244 7013 6156."),
    ("hard_full_commit_sha", "Production is running commit 2c51f8715bb2ba1957b447eac5f2de357aa43943 on main."),
    (
        "hard_sha256_checksum",
        "SHA256 của file ubuntu-24.04.1-desktop-amd64.iso phải là e0e4548df88a35d5854d052281c5deedad16f286f82cb2c23f2f9dea494834ac, kiểm tra trước khi flash USB.",
    ),
    (
        "hard_public_key_authorized",
        "Add to authorized_keys on the NAS: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP8JnyH8Z5UJvxrdXMXIIK480AT2UILT8GpuFV3On10r minh@laptop",
    ),
    ("hard_wifi_password_elsewhere", "Wi-Fi quán cà phê là 'Highlands_Free', mật khẩu thì hỏi nhân viên ở quầy."),
    ("hard_otp_no_code", "OTP sẽ được gửi về số 0912 345 678, chờ khoảng 1 phút rồi nhập vào app."),
    ("hard_url_query_params", "https://shopee.vn/search?keyword=noi%20chien%20khong%20dau&page=2&sortBy=sales"),
    ("hard_promo_code", "Mã giảm giá Grab tháng này là GRABTET50, giảm 50k cho đơn từ 150k."),
    ("hard_idempotency_header", "Idempotency-Key: 99c68092-8153-4daf-9027-2b8d62998dee"),
    ("hard_redacted_env", "PASSWORD=******** in the screenshot is redacted; the real value lives in Vault."),
    (
        "hard_key_fingerprint",
        "GPG key fingerprint for verifying releases: 3AA5 C343 7106 7D34 9F0C  A1B2 8E4F 55D1 0B7C 9E21",
    ),
]
